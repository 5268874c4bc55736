#include "libs/support/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "gtest/gtest.h"

namespace tessel {
namespace {

std::string TempPath(const std::string& name) {
  return std::string(std::getenv("TEST_TMPDIR")) + "/" + name;
}

// Bytes that are not text, longer than one read() chunk.
std::string Pattern(size_t size) {
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(i * 7 % 256);
  return bytes;
}

TEST(FileTest, WritesAndReadsBytesExactly) {
  const std::string path = TempPath("pattern.bin");
  const std::string bytes = Pattern(300000);
  ASSERT_TRUE(WriteFile(path, bytes).ok());
  auto read = ReadFile(path);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, bytes);

  ASSERT_TRUE(WriteFile(path, "").ok());  // replaces, and may be empty
  read = ReadFile(path);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, "");
}

TEST(FileTest, MissingFileAndDirectoryAreNamed) {
  auto missing = ReadFile(TempPath("missing.tir"));
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            TempPath("missing.tir") +
                ": error: cannot open file (No such file or directory)");

  const std::string dir = TempPath("");
  auto directory = ReadFile(dir);
  EXPECT_EQ(directory.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(directory.status().message(),
            dir + ": error: '" + dir + "' is a directory");
}

TEST(FileTest, BoundsRegularFiles) {
  const std::string path = TempPath("ten.txt");
  ASSERT_TRUE(WriteFile(path, "0123456789").ok());
  EXPECT_TRUE(ReadFile(path, 10).ok());
  auto large = ReadFile(path, 9);
  EXPECT_EQ(large.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(large.status().message(),
            path + ": error: input is larger than the 9-byte limit");
}

TEST(FileTest, StopsAnEndlessStreamAtTheLimit) {
  auto zeros = ReadFile("/dev/zero", int64_t{1} << 20);
  EXPECT_EQ(zeros.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(zeros.status().message(),
            "/dev/zero: error: input is larger than the 1 MiB limit");
}

TEST(FileTest, ReadsAPipeToItsEnd) {
  const std::string fifo = TempPath("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string bytes = Pattern(200000);
  std::thread writer([&] { EXPECT_TRUE(WriteFile(fifo, bytes).ok()); });
  auto read = ReadFile(fifo);
  writer.join();
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, bytes);
}

TEST(FileTest, ReadsStdinAsDash) {
  const std::string path = TempPath("stdin.txt");
  ASSERT_TRUE(WriteFile(path, "0123456789").ok());
  const int saved = dup(STDIN_FILENO);
  const int file = open(path.c_str(), O_RDONLY);
  ASSERT_EQ(dup2(file, STDIN_FILENO), STDIN_FILENO);
  auto large = ReadFile("-", 4);
  ASSERT_EQ(dup2(saved, STDIN_FILENO), STDIN_FILENO);
  close(file);
  close(saved);
  EXPECT_EQ(large.status().message(),
            "<stdin>: error: input is larger than the 4-byte limit");
}

TEST(FileTest, FailedWritesAreErrors) {
  // /dev/full accepts open() and fails every write, like a full disk.
  absl::Status full = WriteFile("/dev/full", "x");
  EXPECT_EQ(full.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(full.message(),
            "/dev/full: error: cannot write file (No space left on device)");

  const std::string dir = TempPath("");
  EXPECT_EQ(WriteFile(dir, "x").message(),
            dir + ": error: cannot write file (Is a directory)");
  EXPECT_FALSE(WriteFile(TempPath("no/such/dir/out.tir"), "x").ok());
}

}  // namespace
}  // namespace tessel
