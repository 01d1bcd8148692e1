#include "tools/eventlog/byte_source.h"

#include <fcntl.h>
#include <liblzf/lzf.h>
#include <lz4.h>
#include <snappy.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace aqesim::eventlog {
namespace {

constexpr size_t kReadChunkBytes = 1 << 20;
/// Upper bound accepted for one decompressed block (lz4-java and snappy-java use <= 32 MiB
/// blocks; Spark's default block size is 32 KiB). Larger lengths mean corrupt headers.
constexpr int64_t kMaxBlockBytes = int64_t{1} << 28;
constexpr uint32_t kLz4JavaSeed = 0x9747b28c;
constexpr char kLz4Magic[] = "LZ4Block";
constexpr unsigned char kSnappyMagic[8] = {0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};

uint32_t ReadBe32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}
uint32_t ReadLe32(const unsigned char* p) {
  return (uint32_t{p[3]} << 24) | (uint32_t{p[2]} << 16) | (uint32_t{p[1]} << 8) | uint32_t{p[0]};
}
uint32_t ReadBe16(const unsigned char* p) { return (uint32_t{p[0]} << 8) | uint32_t{p[1]}; }

/// The compressed bytes: a file or a memory buffer, with the offset for messages.
class RawInput {
 public:
  virtual ~RawInput() = default;
  virtual size_t Read(char* buffer, size_t capacity) = 0;
  const std::string& name() const { return name_; }
  int64_t offset() const { return offset_; }

  /// Reads exactly `n` bytes unless the input ends; returns the count read.
  size_t ReadFully(void* buffer, size_t n) {
    char* p = static_cast<char*>(buffer);
    size_t got = 0;
    while (got < n) {
      const size_t r = Read(p + got, n - got);
      if (r == 0) break;
      got += r;
    }
    return got;
  }

  /// For a decoder that fails with `unread` of the bytes read not consumed: the damage is near
  /// the first of them (zlib stops where the stream went wrong; a flipped byte of a 38483-byte
  /// gzip log was reported "near byte 38483", the file's end, whatever its place).
  [[noreturn]] void Corrupt(const std::string& codec, const std::string& what, size_t unread = 0) const {
    const int64_t at = std::max<int64_t>(0, offset_ - static_cast<int64_t>(unread));
    throw EventLogError(name_ + ": corrupt " + codec + " data near byte " + std::to_string(at) + ": " + what);
  }
  /// For a decoder that had consumed all but `unread` of the bytes read when it failed: the
  /// damage is between the first byte it had not consumed and the last read (a zeroed zstd magic
  /// was reported "near byte 34641", the end of the file, only).
  [[noreturn]] void CorruptBetween(const std::string& codec, const std::string& what, size_t unread) const {
    const int64_t from = std::max<int64_t>(0, offset_ - static_cast<int64_t>(unread));
    throw EventLogError(name_ + ": corrupt " + codec + " data between byte " + std::to_string(from) +
                        " and byte " + std::to_string(offset_) + ": " + what);
  }

 protected:
  explicit RawInput(std::string name) : name_(std::move(name)) {}
  std::string name_;
  int64_t offset_ = 0;
};

class FileInput : public RawInput {
 public:
  explicit FileInput(const std::string& path) : RawInput(path) {
    // O_NONBLOCK: opening a FIFO nobody writes to must not wait (it then reads as empty).
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0 && ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0) file_ = ::fdopen(fd, "rb");
    if (file_ == nullptr) {
      const int err = errno;
      if (fd >= 0) ::close(fd);
      errno = err;
      throw EventLogError(path + ": cannot open: " + std::strerror(errno));
    }
  }
  ~FileInput() override {
    if (file_ != nullptr) std::fclose(file_);
  }
  size_t Read(char* buffer, size_t capacity) override {
    size_t given_back = 0;  // the bytes given back come first, in the same read as those after them
    if (unread_pos_ < unread_.size()) {
      given_back = std::min(capacity, unread_.size() - unread_pos_);
      std::memcpy(buffer, unread_.data() + unread_pos_, given_back);
      unread_pos_ += given_back;
      offset_ += static_cast<int64_t>(given_back);
      if (given_back == capacity) return given_back;
    }
    const size_t n = std::fread(buffer + given_back, 1, capacity - given_back, file_);
    if (n == 0 && given_back == 0 && std::ferror(file_))
      throw EventLogError(name_ + ": read error: " + std::strerror(errno));
    offset_ += static_cast<int64_t>(n);
    return given_back + n;
  }
  /// Gives back the bytes just read (the codec sniff's), to be read again first: a pipe or FIFO
  /// cannot be opened a second time from its start.
  void Unread(std::string bytes) {
    offset_ -= static_cast<int64_t>(bytes.size());
    unread_ = std::move(bytes);
    unread_pos_ = 0;
  }

 private:
  std::FILE* file_ = nullptr;
  std::string unread_;
  size_t unread_pos_ = 0;
};

class MemoryInput : public RawInput {
 public:
  MemoryInput(std::string data, std::string name) : RawInput(std::move(name)), data_(std::move(data)) {}
  size_t Read(char* buffer, size_t capacity) override {
    const size_t n = std::min(capacity, data_.size() - pos_);
    std::memcpy(buffer, data_.data() + pos_, n);
    pos_ += n;
    offset_ += static_cast<int64_t>(n);
    return n;
  }

 private:
  std::string data_;
  size_t pos_ = 0;
};

class PlainSource : public ByteSource {
 public:
  explicit PlainSource(std::unique_ptr<RawInput> in) : in_(std::move(in)) {}
  size_t Read(char* buffer, size_t capacity) override { return in_->Read(buffer, capacity); }

 private:
  std::unique_ptr<RawInput> in_;
};

class GzipSource : public ByteSource {
 public:
  explicit GzipSource(std::unique_ptr<RawInput> in) : in_(std::move(in)), buffer_(kReadChunkBytes) {
    std::memset(&zs_, 0, sizeof(zs_));
    if (inflateInit2(&zs_, 15 + 32) != Z_OK) throw EventLogError(in_->name() + ": cannot initialise zlib");
  }
  ~GzipSource() override { inflateEnd(&zs_); }

  size_t Read(char* buffer, size_t capacity) override {
    const uInt want = static_cast<uInt>(std::min<size_t>(capacity, 1u << 30));
    zs_.next_out = reinterpret_cast<Bytef*>(buffer);
    zs_.avail_out = want;
    while (zs_.avail_out == want) {
      if (zs_.avail_in == 0 && !eof_) {
        const size_t n = in_->Read(buffer_.data(), buffer_.size());
        if (n == 0) {
          eof_ = true;
        } else {
          zs_.next_in = reinterpret_cast<Bytef*>(buffer_.data());
          zs_.avail_in = static_cast<uInt>(n);
          saw_input_ = true;
        }
      }
      if (!in_member_) {
        if (zs_.avail_in == 0) return 0;  // clean end after the last member
        if (inflateReset(&zs_) != Z_OK) in_->Corrupt("gzip", Message(), zs_.avail_in);
        in_member_ = true;
      }
      const int r = inflate(&zs_, Z_NO_FLUSH);
      if (r == Z_STREAM_END) {
        in_member_ = false;
      } else if (r == Z_BUF_ERROR) {
        if (eof_ && zs_.avail_out == want) {
          truncated_ = saw_input_;
          return 0;
        }
      } else if (r != Z_OK) {
        in_->Corrupt("gzip", Message(), zs_.avail_in);
      }
    }
    return want - zs_.avail_out;
  }
  bool truncated() const override { return truncated_; }

 private:
  std::string Message() const { return zs_.msg != nullptr ? zs_.msg : "inflate failed"; }

  std::unique_ptr<RawInput> in_;
  std::vector<char> buffer_;
  z_stream zs_;
  bool eof_ = false;
  bool in_member_ = true;
  bool saw_input_ = false;
  bool truncated_ = false;
};

class ZstdSource : public ByteSource {
 public:
  explicit ZstdSource(std::unique_ptr<RawInput> in) : in_(std::move(in)), buffer_(ZSTD_DStreamInSize()) {
    ds_ = ZSTD_createDStream();
    if (ds_ == nullptr) throw EventLogError(in_->name() + ": cannot initialise zstd");
    ZSTD_initDStream(ds_);
    input_ = {buffer_.data(), 0, 0};
  }
  ~ZstdSource() override { ZSTD_freeDStream(ds_); }

  size_t Read(char* buffer, size_t capacity) override {
    ZSTD_outBuffer out{buffer, capacity, 0};
    while (true) {
      const size_t in_before = input_.pos;
      const size_t out_before = out.pos;
      const size_t r = ZSTD_decompressStream(ds_, &out, &input_);
      if (ZSTD_isError(r)) in_->CorruptBetween("zstd", ZSTD_getErrorName(r), input_.size - input_.pos);
      // A call that consumed and produced nothing (polling at the end) says nothing about
      // whether the last frame was complete.
      if (input_.pos != in_before || out.pos != out_before) last_hint_ = r;
      if (out.pos > 0) return out.pos;
      if (input_.pos < input_.size) continue;
      const size_t n = in_->Read(buffer_.data(), buffer_.size());
      if (n == 0) {
        truncated_ = saw_input_ && last_hint_ != 0;
        return 0;
      }
      saw_input_ = true;
      input_ = {buffer_.data(), n, 0};
    }
  }
  bool truncated() const override { return truncated_; }

 private:
  std::unique_ptr<RawInput> in_;
  std::vector<char> buffer_;
  ZSTD_DStream* ds_ = nullptr;
  ZSTD_inBuffer input_;
  size_t last_hint_ = 0;
  bool saw_input_ = false;
  bool truncated_ = false;
};

/// Shared shape of the block formats: decode one block at a time into block_.
class BlockSource : public ByteSource {
 public:
  size_t Read(char* buffer, size_t capacity) override {
    while (pos_ >= block_.size()) {
      block_.clear();
      pos_ = 0;
      if (done_ || !NextBlock()) {
        done_ = true;
        return 0;
      }
    }
    const size_t n = std::min(capacity, block_.size() - pos_);
    std::memcpy(buffer, block_.data() + pos_, n);
    pos_ += n;
    return n;
  }
  bool truncated() const override { return truncated_; }

 protected:
  explicit BlockSource(std::unique_ptr<RawInput> in) : in_(std::move(in)) {}
  /// Fills block_ (possibly with zero bytes); false at the end of the input.
  virtual bool NextBlock() = 0;
  /// Reads `n` bytes; false (and truncated_) when the input ends part-way.
  bool ReadOrTruncate(void* dst, size_t n) {
    if (in_->ReadFully(dst, n) == n) return true;
    truncated_ = true;
    return false;
  }

  std::unique_ptr<RawInput> in_;
  std::vector<char> block_;
  std::vector<char> compressed_;
  size_t pos_ = 0;
  bool done_ = false;
  bool truncated_ = false;
};

class Lz4BlockSource : public BlockSource {
 public:
  explicit Lz4BlockSource(std::unique_ptr<RawInput> in) : BlockSource(std::move(in)) {}

 protected:
  bool NextBlock() override {
    unsigned char header[21];
    const size_t got = in_->ReadFully(header, sizeof(header));
    if (got == 0) return false;
    if (got < sizeof(header)) {
      truncated_ = true;
      return false;
    }
    if (std::memcmp(header, kLz4Magic, 8) != 0) in_->Corrupt("lz4", "expected block magic \"LZ4Block\"");
    const int method = header[8] & 0xF0;
    const int64_t compressed = static_cast<int32_t>(ReadLe32(header + 9));
    const int64_t decompressed = static_cast<int32_t>(ReadLe32(header + 13));
    const uint32_t checksum = ReadLe32(header + 17);
    if (method != 0x10 && method != 0x20)
      in_->Corrupt("lz4", "unknown compression method " + std::to_string(method));
    if (compressed < 0 || decompressed < 0 || decompressed > kMaxBlockBytes || compressed > kMaxBlockBytes ||
        (method == 0x10 && compressed != decompressed)) {
      in_->Corrupt(
          "lz4", "invalid block lengths " + std::to_string(compressed) + "/" + std::to_string(decompressed));
    }
    if (decompressed == 0) return true;  // end-of-stream marker; a concatenated stream may follow
    compressed_.resize(static_cast<size_t>(compressed));
    if (!ReadOrTruncate(compressed_.data(), compressed_.size())) return false;
    block_.resize(static_cast<size_t>(decompressed));
    if (method == 0x10) {
      std::memcpy(block_.data(), compressed_.data(), block_.size());
    } else {
      const int r = LZ4_decompress_safe(compressed_.data(), block_.data(), static_cast<int>(compressed),
                                        static_cast<int>(decompressed));
      if (r != decompressed) in_->Corrupt("lz4", "block does not decompress");
    }
    const uint32_t hash = XxHash32(block_.data(), block_.size(), kLz4JavaSeed);
    if ((hash & 0x0FFFFFFF) != checksum && hash != checksum) in_->Corrupt("lz4", "block checksum mismatch");
    return true;
  }
};

class SnappyStreamSource : public BlockSource {
 public:
  explicit SnappyStreamSource(std::unique_ptr<RawInput> in) : BlockSource(std::move(in)) {}

 protected:
  bool NextBlock() override {
    unsigned char len[4];
    const size_t got = in_->ReadFully(len, 4);
    if (got == 0) {
      if (!saw_header_) in_->Corrupt("snappy", "empty stream (no snappy-java header)");
      return false;
    }
    if (got < 4) {
      truncated_ = true;
      return false;
    }
    if (std::memcmp(len, kSnappyMagic, 4) == 0) {
      unsigned char rest[12];
      if (!ReadOrTruncate(rest, sizeof(rest))) return false;
      if (std::memcmp(rest, kSnappyMagic + 4, 4) != 0) in_->Corrupt("snappy", "bad snappy-java header");
      saw_header_ = true;
      return true;  // an empty block; the caller loops
    }
    if (!saw_header_) in_->Corrupt("snappy", "missing snappy-java header (0x82 SNAPPY 0x00)");
    const int64_t length = static_cast<int32_t>(ReadBe32(len));
    if (length < 0 || length > kMaxBlockBytes)
      in_->Corrupt("snappy", "invalid block length " + std::to_string(length));
    compressed_.resize(static_cast<size_t>(length));
    if (!ReadOrTruncate(compressed_.data(), compressed_.size())) return false;
    size_t uncompressed = 0;
    if (!snappy::GetUncompressedLength(compressed_.data(), compressed_.size(), &uncompressed) ||
        uncompressed > static_cast<size_t>(kMaxBlockBytes)) {
      in_->Corrupt("snappy", "invalid block header");
    }
    block_.resize(uncompressed);
    if (!snappy::RawUncompress(compressed_.data(), compressed_.size(), block_.data())) {
      in_->Corrupt("snappy", "block does not decompress");
    }
    return true;
  }

 private:
  bool saw_header_ = false;
};

class LzfSource : public BlockSource {
 public:
  explicit LzfSource(std::unique_ptr<RawInput> in) : BlockSource(std::move(in)) {}

 protected:
  bool NextBlock() override {
    unsigned char header[7];
    const size_t got = in_->ReadFully(header, 5);
    if (got == 0) return false;
    if (got < 5) {
      truncated_ = true;
      return false;
    }
    if (header[0] != 'Z' || header[1] != 'V') in_->Corrupt("lzf", "expected chunk magic \"ZV\"");
    const int type = header[2];
    if (type == 0) {
      block_.resize(ReadBe16(header + 3));
      return ReadOrTruncate(block_.data(), block_.size());
    }
    if (type != 1) in_->Corrupt("lzf", "unknown chunk type " + std::to_string(type));
    if (!ReadOrTruncate(header + 5, 2)) return false;
    const uint32_t compressed = ReadBe16(header + 3);
    const uint32_t uncompressed = ReadBe16(header + 5);
    // liblzf reads its first input byte before checking the length: an empty compressed
    // chunk would be read through a null pointer.
    if (compressed == 0 && uncompressed != 0) in_->Corrupt("lzf", "compressed chunk without data");
    compressed_.resize(compressed);
    if (!ReadOrTruncate(compressed_.data(), compressed_.size())) return false;
    block_.resize(uncompressed);
    const unsigned int r =
        uncompressed == 0 ? 0 : lzf_decompress(compressed_.data(), compressed, block_.data(), uncompressed);
    if (r != uncompressed) in_->Corrupt("lzf", "chunk does not decompress");
    return true;
  }
};

std::unique_ptr<ByteSource> Wrap(std::unique_ptr<RawInput> in, Codec codec) {
  switch (codec) {
    case Codec::kPlain:
      return std::make_unique<PlainSource>(std::move(in));
    case Codec::kGzip:
      return std::make_unique<GzipSource>(std::move(in));
    case Codec::kZstd:
      return std::make_unique<ZstdSource>(std::move(in));
    case Codec::kLz4:
      return std::make_unique<Lz4BlockSource>(std::move(in));
    case Codec::kSnappy:
      return std::make_unique<SnappyStreamSource>(std::move(in));
    case Codec::kLzf:
      return std::make_unique<LzfSource>(std::move(in));
  }
  return nullptr;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::string_view CodecName(Codec codec) {
  switch (codec) {
    case Codec::kPlain:
      return "plain";
    case Codec::kGzip:
      return "gzip";
    case Codec::kZstd:
      return "zstd";
    case Codec::kLz4:
      return "lz4";
    case Codec::kSnappy:
      return "snappy";
    case Codec::kLzf:
      return "lzf";
  }
  return "?";
}

std::optional<Codec> CodecFromFileName(std::string_view name) {
  if (EndsWith(name, ".inprogress")) name.remove_suffix(std::string_view(".inprogress").size());
  if (EndsWith(name, ".gz") || EndsWith(name, ".gzip")) return Codec::kGzip;
  if (EndsWith(name, ".zstd") || EndsWith(name, ".zst")) return Codec::kZstd;
  if (EndsWith(name, ".lz4")) return Codec::kLz4;
  if (EndsWith(name, ".snappy")) return Codec::kSnappy;
  if (EndsWith(name, ".lzf")) return Codec::kLzf;
  if (EndsWith(name, ".json") || EndsWith(name, ".log") || EndsWith(name, ".txt")) return Codec::kPlain;
  return std::nullopt;
}

std::optional<Codec> SniffCodec(std::string_view b) {
  auto starts = [&](std::string_view magic) { return b.substr(0, magic.size()) == magic; };
  if (starts("\x1f\x8b")) return Codec::kGzip;
  if (starts(std::string_view("\x28\xb5\x2f\xfd", 4))) return Codec::kZstd;
  if (starts("LZ4Block")) return Codec::kLz4;
  if (starts(std::string_view(reinterpret_cast<const char*>(kSnappyMagic), 8))) return Codec::kSnappy;
  if (starts("ZV") && b.size() >= 3 && (b[2] == 0 || b[2] == 1)) return Codec::kLzf;
  if (starts("{") || starts("\n") || starts(" ")) return Codec::kPlain;
  return std::nullopt;
}

std::unique_ptr<ByteSource> OpenByteSource(const std::string& path, Codec codec) {
  return Wrap(std::make_unique<FileInput>(path), codec);
}

std::unique_ptr<ByteSource> OpenByteSource(const std::string& path, Codec* codec_out) {
  // The codec is the file name's, as Spark's history server chooses it; the first bytes are
  // sniffed all the same (and then read again from the same descriptor: a pipe, `<(...)` or a
  // FIFO has no second start to reopen). Without a known suffix they decide; with one, bytes of
  // another compression codec are an error that says which (a zstd log named .gz was reported as
  // "corrupt gzip data ...: incorrect header check").
  const std::optional<Codec> named = CodecFromFileName(path);
  auto input = std::make_unique<FileInput>(path);
  char head[8] = {};
  const size_t n = input->ReadFully(head, sizeof(head));
  const std::optional<Codec> sniffed = SniffCodec(std::string_view(head, n));
  input->Unread(std::string(head, n));
  if (named && sniffed && *sniffed != *named && *named != Codec::kPlain)
    throw EventLogError(path + ": the name says " + std::string(CodecName(*named)) + " but the data is " +
                        (*sniffed == Codec::kPlain ? std::string("plain text (uncompressed JSON lines)")
                                                   : std::string(CodecName(*sniffed))) +
                        " (by its first bytes): rename the file");
  const Codec codec = named.value_or(sniffed.value_or(Codec::kPlain));
  if (codec_out != nullptr) *codec_out = codec;
  return Wrap(std::move(input), codec);
}

std::unique_ptr<ByteSource> MemoryByteSource(std::string data, Codec codec, std::string name) {
  return Wrap(std::make_unique<MemoryInput>(std::move(data), std::move(name)), codec);
}

uint32_t XxHash32(const void* data, size_t length, uint32_t seed) {
  constexpr uint32_t kP1 = 2654435761U, kP2 = 2246822519U, kP3 = 3266489917U, kP4 = 668265263U,
                     kP5 = 374761393U;
  auto rotl = [](uint32_t x, int r) { return (x << r) | (x >> (32 - r)); };
  const auto* p = static_cast<const unsigned char*>(data);
  const unsigned char* const end = p + length;
  uint32_t h;
  if (length >= 16) {
    uint32_t v1 = seed + kP1 + kP2, v2 = seed + kP2, v3 = seed, v4 = seed - kP1;
    const unsigned char* const limit = end - 16;
    do {
      v1 = rotl(v1 + ReadLe32(p) * kP2, 13) * kP1;
      v2 = rotl(v2 + ReadLe32(p + 4) * kP2, 13) * kP1;
      v3 = rotl(v3 + ReadLe32(p + 8) * kP2, 13) * kP1;
      v4 = rotl(v4 + ReadLe32(p + 12) * kP2, 13) * kP1;
      p += 16;
    } while (p <= limit);
    h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
  } else {
    h = seed + kP5;
  }
  h += static_cast<uint32_t>(length);
  while (p + 4 <= end) {
    h = rotl(h + ReadLe32(p) * kP3, 17) * kP4;
    p += 4;
  }
  while (p < end) {
    h = rotl(h + (*p) * kP5, 11) * kP1;
    ++p;
  }
  h ^= h >> 15;
  h *= kP2;
  h ^= h >> 13;
  h *= kP3;
  h ^= h >> 16;
  return h;
}

}  // namespace aqesim::eventlog
