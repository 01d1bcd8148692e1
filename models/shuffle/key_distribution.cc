#include "models/shuffle/key_distribution.h"

#include <algorithm>
#include <cmath>

namespace aqesim {

KeyModel::KeyModel(const KeyDistribution& d) : d_(d) {
  d_.task_keys.clear();
  if (d_.kind != KeyDistribution::Kind::kZipf) return;
  zipf_cdf_.resize(static_cast<size_t>(d_.distinct_keys));
  double sum = 0;
  for (int64_t k = 0; k < d_.distinct_keys; ++k) {
    sum += std::pow(static_cast<double>(k + 1), -d_.exponent);
    zipf_cdf_[static_cast<size_t>(k)] = sum;
  }
  for (double& c : zipf_cdf_) c /= sum;
  zipf_cdf_.back() = 1.0;
}

double KeyModel::Cdf(int64_t k) const {
  if (k < 0) return 0.0;
  const int64_t n = d_.distinct_keys;
  if (k >= n - 1) return 1.0;
  switch (d_.kind) {
    case KeyDistribution::Kind::kZipf:
      return zipf_cdf_[static_cast<size_t>(k)];
    case KeyDistribution::Kind::kHotKeys: {
      const int64_t h = d_.hot_count;
      if (k < h) return d_.hot_fraction * static_cast<double>(k + 1) / static_cast<double>(h);
      return d_.hot_fraction +
             (1.0 - d_.hot_fraction) * static_cast<double>(k + 1 - h) / static_cast<double>(n - h);
    }
    default:
      return static_cast<double>(k + 1) / static_cast<double>(n);
  }
}

int64_t KeyModel::Draw(Rng& rng) const {
  const int64_t n = d_.distinct_keys;
  switch (d_.kind) {
    case KeyDistribution::Kind::kZipf: {
      const double u = rng.Uniform01();
      const auto it = std::upper_bound(zipf_cdf_.begin(), zipf_cdf_.end(), u);
      return std::min<int64_t>(it - zipf_cdf_.begin(), n - 1);
    }
    case KeyDistribution::Kind::kHotKeys: {
      const int64_t h = d_.hot_count;
      if (rng.Uniform01() < d_.hot_fraction)
        return static_cast<int64_t>(rng.UniformInt(static_cast<uint64_t>(h)));
      return h + static_cast<int64_t>(rng.UniformInt(static_cast<uint64_t>(n - h)));
    }
    default:
      return static_cast<int64_t>(rng.UniformInt(static_cast<uint64_t>(n)));
  }
}

}  // namespace aqesim
