// Streaming decompression of Spark event-log files: plain, gzip, and Spark's IO codecs as
// Spark's EventLogFileWriters write them (core/.../io/CompressionCodec.scala):
//   zstd    standard zstd frames (ZstdOutputStream), any number of frames
//   lz4     lz4-java's LZ4BlockOutputStream: blocks of
//           "LZ4Block" | token (method 0x10 raw / 0x20 lz4 | level) | compressed length (int32 LE)
//           | decompressed length (int32 LE) | xxhash32 checksum (seed 0x9747b28c, & 0x0FFFFFFF)
//           | payload; an empty raw block ends a stream (streams may be concatenated)
//   snappy  snappy-java's SnappyOutputStream: header 0x82 "SNAPPY" 0x00, version and
//           compatible version (int32 BE); then blocks of int32 BE length + raw snappy block
//           (the header may recur where streams were concatenated)
//   lzf     Ning compress-lzf chunks: "ZV", type (0 raw / 1 lzf), length(s) as uint16 BE
//   gzip    gzip or zlib members (zlib's inflate, concatenated members allowed)
// The codec is chosen from the file extension; without a known extension the first bytes
// are sniffed. Corrupt data throws EventLogError; a stream that simply ends early (a log
// still being written) is reported through truncated().
#ifndef AQESIM_TOOLS_EVENTLOG_BYTE_SOURCE_H_
#define AQESIM_TOOLS_EVENTLOG_BYTE_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "tools/eventlog/event_log_error.h"

namespace aqesim::eventlog {

enum class Codec { kPlain, kGzip, kZstd, kLz4, kSnappy, kLzf };

std::string_view CodecName(Codec codec);  // "plain", "gzip", "zstd", "lz4", "snappy", "lzf"

/// Codec implied by a file name's extension (.gz, .zstd/.zst, .lz4, .snappy, .lzf, .json,
/// .log, .inprogress is stripped first); nullopt when the extension says nothing.
std::optional<Codec> CodecFromFileName(std::string_view file_name);

/// Codec implied by the first bytes of a file (magic numbers); nullopt when unknown
/// (the caller then treats the file as plain text).
std::optional<Codec> SniffCodec(std::string_view first_bytes);

/// A sequential stream of decompressed bytes.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Reads up to `capacity` bytes into `buffer`; returns 0 only at the end of the stream.
  /// Throws EventLogError on unreadable or corrupt input.
  virtual size_t Read(char* buffer, size_t capacity) = 0;
  /// True when the compressed stream ended in the middle of a block/frame (a truncated log).
  virtual bool truncated() const { return false; }
};

/// Opens `path` and wraps it in the decoder for `codec`.
std::unique_ptr<ByteSource> OpenByteSource(const std::string& path, Codec codec);

/// Opens `path` with the codec from its extension, else by sniffing. `codec_out` (optional)
/// receives the codec chosen.
std::unique_ptr<ByteSource> OpenByteSource(const std::string& path, Codec* codec_out = nullptr);

/// Decoder over an in-memory buffer (tests).
std::unique_ptr<ByteSource> MemoryByteSource(std::string data, Codec codec, std::string name = "<memory>");

/// xxHash32 of `data` with `seed` (as lz4-java's block checksum uses it).
uint32_t XxHash32(const void* data, size_t length, uint32_t seed);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_BYTE_SOURCE_H_
