#include "libs/support/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace tessel {
namespace {

// What one read() asks for: few system calls for large inputs, and a buffer
// small enough for the stack.
constexpr size_t kChunkBytes = size_t{1} << 16;

// " (No space left on device)" for an errno value, nothing for 0.
std::string Reason(int error) {
  if (error == 0) return "";
  return absl::StrCat(" (", std::generic_category().message(error), ")");
}

// "256 MiB" for whole mebibytes, else "1000-byte".
std::string SizeText(int64_t bytes) {
  constexpr int64_t kMiB = int64_t{1} << 20;
  if (bytes > 0 && bytes % kMiB == 0) return absl::StrCat(bytes / kMiB, " MiB");
  return absl::StrCat(bytes, "-byte");
}

absl::Status TooLarge(absl::string_view name, int64_t max_bytes) {
  return absl::ResourceExhaustedError(
      absl::StrCat(name, ": error: input is larger than the ",
                   SizeText(max_bytes), " limit"));
}

// Reads `fd` to its end. Regular files, pipes and devices all go through the
// same loop, because a file's size says nothing about what reading it gives
// (/dev/zero has size 0) and a regular file can grow while it is read.
absl::StatusOr<std::string> ReadDescriptor(int fd, absl::string_view name,
                                           int64_t max_bytes) {
  struct stat info;
  if (fstat(fd, &info) != 0) {
    return absl::DataLossError(
        absl::StrCat(name, ": error: cannot read file", Reason(errno)));
  }
  if (S_ISDIR(info.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": error: '", name, "' is a directory"));
  }
  std::string bytes;
  if (S_ISREG(info.st_mode)) {
    if (info.st_size > max_bytes) return TooLarge(name, max_bytes);
    bytes.reserve(static_cast<size_t>(info.st_size));
  }
  char chunk[kChunkBytes];
  while (true) {
    const ssize_t count = read(fd, chunk, sizeof chunk);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) {
      return absl::DataLossError(
          absl::StrCat(name, ": error: cannot read file", Reason(errno)));
    }
    if (count == 0) return bytes;
    if (static_cast<int64_t>(bytes.size()) + count > max_bytes) {
      return TooLarge(name, max_bytes);
    }
    bytes.append(chunk, static_cast<size_t>(count));
  }
}

// Writes all of `bytes` to `fd`; returns 0 or the errno of the failure.
int WriteDescriptor(int fd, absl::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t count = write(fd, bytes.data(), bytes.size());
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return errno;
    bytes.remove_prefix(static_cast<size_t>(count));
  }
  return 0;
}

// Stdout has no file name to put in front of the error; the tool's name
// goes there (see RunTool).
absl::Status StdoutError(int error) {
  return absl::DataLossError(
      absl::StrCat("cannot write stdout", Reason(error)));
}

}  // namespace

absl::StatusOr<std::string> ReadFile(const std::string& path,
                                     int64_t max_bytes) {
  if (path == "-") return ReadDescriptor(STDIN_FILENO, "<stdin>", max_bytes);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    std::string message =
        absl::StrCat(path, ": error: cannot open file", Reason(error));
    return error == ENOENT ? absl::NotFoundError(message)
                           : absl::PermissionDeniedError(message);
  }
  auto bytes = ReadDescriptor(fd, path, max_bytes);
  close(fd);
  return bytes;
}

OutputFile::~OutputFile() {
  if (fd_ < 0) return;
  close(fd_);
  if (regular_) unlink(path_.c_str());
}

absl::Status OutputFile::Open() {
  opened_ = true;
  if (path_ == "-") return absl::OkStatus();
  fd_ = open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    return absl::PermissionDeniedError(
        absl::StrCat(path_, ": error: cannot write file", Reason(errno)));
  }
  struct stat info;
  regular_ = fstat(fd_, &info) == 0 && S_ISREG(info.st_mode);
  return absl::OkStatus();
}

absl::Status OutputFile::Fail(int error) {
  if (path_ == "-") return StdoutError(error);
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  if (regular_) unlink(path_.c_str());
  return absl::DataLossError(
      absl::StrCat(path_, ": error: cannot write file", Reason(error)));
}

absl::Status OutputFile::Write(absl::string_view bytes) {
  if (!opened_) {
    if (auto status = Open(); !status.ok()) return status;
  }
  if (path_ == "-") {
    errno = 0;
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size()) {
      return StdoutError(errno);
    }
    return absl::OkStatus();
  }
  if (fd_ < 0) return Fail(EBADF);
  if (int error = WriteDescriptor(fd_, bytes); error != 0) return Fail(error);
  return absl::OkStatus();
}

absl::Status OutputFile::Close() {
  if (!opened_) {
    if (auto status = Open(); !status.ok()) return status;
  }
  if (path_ == "-") return FlushStdout();
  if (fd_ < 0) return Fail(EBADF);
  // Some file systems report a failed write only when the file is closed.
  int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0) return Fail(errno);
  return absl::OkStatus();
}

absl::Status WriteOutput(const std::string& path,
                         absl::FunctionRef<absl::Status(TextSink)> produce) {
  OutputFile file(path);
  if (auto status = produce([&](absl::string_view text) {
        return file.Write(text);
      });
      !status.ok()) {
    return status;
  }
  return file.Close();
}

absl::Status WriteFile(const std::string& path, absl::string_view bytes) {
  OutputFile file(path);
  if (auto status = file.Write(bytes); !status.ok()) return status;
  return file.Close();
}

absl::Status FlushStdout() {
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && !std::ferror(stdout)) return absl::OkStatus();
  // A write that failed earlier, while the buffer was flushed implicitly,
  // leaves only the error flag: its errno is gone by now.
  return StdoutError(flushed ? 0 : error);
}

}  // namespace tessel
