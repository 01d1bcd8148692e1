#include "tools/eventlog/byte_source.h"

#include <liblzf/lzf.h>
#include <lz4.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <string>

#include "tests/tools/eventlog/test_util.h"

namespace aqesim::eventlog {
namespace {

using testing::AqeShuffleText;
using testing::DrainSource;

void PutLe32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void PutBe32(std::string* out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void PutBe16(std::string* out, uint32_t v) {
  out->push_back(static_cast<char>((v >> 8) & 0xFF));
  out->push_back(static_cast<char>(v & 0xFF));
}

/// lz4-java LZ4BlockOutputStream bytes, built block by block with liblz4.
std::string Lz4JavaStream(const std::string& data, size_t block_size) {
  std::string out;
  for (size_t pos = 0; pos < data.size(); pos += block_size) {
    const std::string block = data.substr(pos, block_size);
    std::string compressed(LZ4_compressBound(static_cast<int>(block.size())), '\0');
    const int n = LZ4_compress_default(block.data(), compressed.data(), static_cast<int>(block.size()),
                                       static_cast<int>(compressed.size()));
    compressed.resize(n);
    const bool raw = compressed.size() >= block.size();
    out += "LZ4Block";
    out.push_back(static_cast<char>((raw ? 0x10 : 0x20) | 0x0A));
    PutLe32(&out, static_cast<uint32_t>(raw ? block.size() : compressed.size()));
    PutLe32(&out, static_cast<uint32_t>(block.size()));
    PutLe32(&out, XxHash32(block.data(), block.size(), 0x9747b28c) & 0x0FFFFFFF);
    out += raw ? block : compressed;
  }
  out += "LZ4Block";
  out.push_back(0x10);
  PutLe32(&out, 0);
  PutLe32(&out, 0);
  PutLe32(&out, 0);
  return out;
}

/// snappy-java SnappyOutputStream bytes.
std::string SnappyJavaStream(const std::string& data, size_t block_size) {
  std::string out("\x82SNAPPY\0", 8);
  PutBe32(&out, 1);
  PutBe32(&out, 1);
  for (size_t pos = 0; pos < data.size(); pos += block_size) {
    std::string compressed;
    const std::string block = data.substr(pos, block_size);
    snappy::Compress(block.data(), block.size(), &compressed);
    PutBe32(&out, static_cast<uint32_t>(compressed.size()));
    out += compressed;
  }
  return out;
}

/// Ning compress-lzf chunks (LZFOutputStream): compressed where it helps, raw otherwise.
std::string LzfStream(const std::string& data) {
  std::string out;
  constexpr size_t kChunk = 0xFFFF;
  for (size_t pos = 0; pos < data.size(); pos += kChunk) {
    const std::string block = data.substr(pos, kChunk);
    std::string compressed(block.size(), '\0');
    const unsigned n = lzf_compress(block.data(), block.size(), compressed.data(), compressed.size() - 1);
    out += "ZV";
    if (n == 0) {
      out.push_back(0);
      PutBe16(&out, static_cast<uint32_t>(block.size()));
      out += block;
    } else {
      out.push_back(1);
      PutBe16(&out, n);
      PutBe16(&out, static_cast<uint32_t>(block.size()));
      out.append(compressed.data(), n);
    }
  }
  return out;
}

std::string GzipBytes(const std::string& data) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&zs, data.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::string ZstdBytes(const std::string& data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  const size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
  REQUIRE_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

TEST_CASE("XxHash32: reference values", "[eventlog][codec]") {
  // xxHash32 reference vectors (empty input; "a"; 0x9747b28c-seeded empty input).
  CHECK(XxHash32("", 0, 0) == 0x02CC5D05u);
  CHECK(XxHash32("a", 1, 0) == 0x550D7456u);
  CHECK(XxHash32("abc", 3, 0) == 0x32D153FFu);
}

TEST_CASE("Codecs: every stream format decodes to the original text", "[eventlog][codec]") {
  const std::string text = AqeShuffleText();
  REQUIRE(text.size() == 356025);  // README: uncompressed size of aqeshuffle_eventlog.zstd

  SECTION("lz4-java blocks of 32 KiB (Spark's default block size)") {
    auto src = MemoryByteSource(Lz4JavaStream(text, 32 * 1024), Codec::kLz4);
    CHECK(DrainSource(*src) == text);
    CHECK_FALSE(src->truncated());
  }
  SECTION("lz4-java: two concatenated streams") {
    auto src =
        MemoryByteSource(Lz4JavaStream("{\"a\":1}\n", 4) + Lz4JavaStream("{\"b\":2}\n", 64), Codec::kLz4);
    CHECK(DrainSource(*src) == "{\"a\":1}\n{\"b\":2}\n");
  }
  SECTION("snappy-java") {
    auto src = MemoryByteSource(SnappyJavaStream(text, 32 * 1024), Codec::kSnappy);
    CHECK(DrainSource(*src) == text);
  }
  SECTION("snappy-java: header repeated where streams were concatenated") {
    auto src =
        MemoryByteSource(SnappyJavaStream("line1\n", 100) + SnappyJavaStream("line2\n", 100), Codec::kSnappy);
    CHECK(DrainSource(*src) == "line1\nline2\n");
  }
  SECTION("lzf chunks") {
    auto src = MemoryByteSource(LzfStream(text), Codec::kLzf);
    CHECK(DrainSource(*src) == text);
  }
  SECTION("gzip, two members") {
    auto src = MemoryByteSource(GzipBytes(text.substr(0, 1000)) + GzipBytes(text.substr(1000)), Codec::kGzip);
    CHECK(DrainSource(*src) == text);
    CHECK_FALSE(src->truncated());
  }
  SECTION("zstd, two frames") {
    auto src = MemoryByteSource(ZstdBytes(text.substr(0, 5000)) + ZstdBytes(text.substr(5000)), Codec::kZstd);
    CHECK(DrainSource(*src) == text);
    CHECK_FALSE(src->truncated());
  }
}

TEST_CASE("Codecs: chosen by extension, else by magic bytes", "[eventlog][codec]") {
  CHECK(CodecFromFileName("x/app.zstd") == Codec::kZstd);
  CHECK(CodecFromFileName("events_1_app.zst") == Codec::kZstd);
  CHECK(CodecFromFileName("app.lz4.inprogress") == Codec::kLz4);
  CHECK(CodecFromFileName("app.snappy") == Codec::kSnappy);
  CHECK(CodecFromFileName("app.lzf") == Codec::kLzf);
  CHECK(CodecFromFileName("app.gz") == Codec::kGzip);
  CHECK_FALSE(CodecFromFileName("application_1472176676028_407508_1").has_value());
  CHECK(SniffCodec("\x28\xb5\x2f\xfd") == Codec::kZstd);
  CHECK(SniffCodec("LZ4Block") == Codec::kLz4);
  CHECK(SniffCodec(std::string_view("\x82SNAPPY\0", 8)) == Codec::kSnappy);
  CHECK(SniffCodec(std::string_view("ZV\x01", 3)) == Codec::kLzf);
  CHECK(SniffCodec("\x1f\x8b\x08") == Codec::kGzip);
  CHECK(SniffCodec("{\"Event\"") == Codec::kPlain);

  testing::TempDir dir;
  const std::string text = "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.2.1\"}\n";
  testing::WriteBytes(dir.File("noext"), Lz4JavaStream(text, 16));
  Codec codec = Codec::kPlain;
  auto src = OpenByteSource(dir.File("noext"), &codec);
  CHECK(codec == Codec::kLz4);
  CHECK(DrainSource(*src) == text);
}

TEST_CASE("Codecs: corrupt data is an error, a cut stream is reported as truncated", "[eventlog][codec]") {
  const std::string text = AqeShuffleText().substr(0, 20000);
  SECTION("zstd with damaged bytes") {
    std::string z = ZstdBytes(text);
    for (size_t i = 20; i < 60; ++i) z[i] = static_cast<char>(z[i] ^ 0x5A);
    auto src = MemoryByteSource(z, Codec::kZstd, "bad.zstd");
    CHECK_THROWS_AS(DrainSource(*src), EventLogError);
  }
  SECTION("lz4-java checksum mismatch names the file") {
    std::string z = Lz4JavaStream(text, 1 << 16);
    z[17] = static_cast<char>(z[17] ^ 0x01);  // checksum field of the first block
    auto src = MemoryByteSource(z, Codec::kLz4, "bad.lz4");
    CHECK_THROWS_WITH(DrainSource(*src),
                      Catch::Contains("bad.lz4: corrupt lz4 data") && Catch::Contains("checksum"));
  }
  SECTION("lz4-java bad magic") {
    std::string z = Lz4JavaStream(text, 1 << 16);
    z[0] = 'X';
    auto src = MemoryByteSource(z, Codec::kLz4, "bad.lz4");
    CHECK_THROWS_WITH(DrainSource(*src), Catch::Contains("LZ4Block"));
  }
  SECTION("snappy-java without header") {
    auto src = MemoryByteSource(SnappyJavaStream(text, 4096).substr(16), Codec::kSnappy, "bad.snappy");
    CHECK_THROWS_AS(DrainSource(*src), EventLogError);
  }
  SECTION("lzf bad chunk magic") {
    std::string z = LzfStream(text);
    z[1] = 'Q';
    auto src = MemoryByteSource(z, Codec::kLzf, "bad.lzf");
    CHECK_THROWS_WITH(DrainSource(*src), Catch::Contains("bad.lzf: corrupt lzf data"));
  }
  SECTION("gzip garbage") {
    std::string z = GzipBytes(text);
    for (size_t i = 30; i < 80; ++i) z[i] = static_cast<char>(0xFF);
    auto src = MemoryByteSource(z, Codec::kGzip, "bad.gz");
    CHECK_THROWS_AS(DrainSource(*src), EventLogError);
  }
  SECTION("zstd cut short: a prefix of the text, flagged truncated") {
    const std::string z = ZstdBytes(text);
    auto src = MemoryByteSource(z.substr(0, z.size() / 2), Codec::kZstd);
    const std::string got = DrainSource(*src);
    CHECK(src->truncated());
    CHECK(text.compare(0, got.size(), got) == 0);
  }
  SECTION("lz4-java cut inside a block") {
    const std::string z = Lz4JavaStream(text, 4096);
    auto src = MemoryByteSource(z.substr(0, z.size() - 100), Codec::kLz4);
    const std::string got = DrainSource(*src);
    CHECK(src->truncated());
    CHECK(text.compare(0, got.size(), got) == 0);
  }
}

}  // namespace
}  // namespace aqesim::eventlog
