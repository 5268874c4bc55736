// NumPy's .npy format (versions 1.0, 2.0 and 3.0), the file format in which
// Tessel's tools exchange tensors: run-sim reads inputs and writes outputs
// as DIR/NAME.npy, and so does the C harness of emit-c.
//
// Readable dtypes are those of the element types (float16, float32,
// float64, int8 and int32: libs/ir/elem_types.def) in either byte order;
// Fortran-ordered arrays are converted to row-major. Files are written as
// version 1.0 (2.0 when the header needs it), little-endian, row-major.
#ifndef TESSEL_LIBS_NPY_NPY_H_
#define TESSEL_LIBS_NPY_NPY_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/npy/host_tensor.h"

namespace tessel {

// Parses the contents of a .npy file. Errors read `NAME: error: message`
// (a bad magic string, a malformed header or one over 1 MiB, an unsupported
// dtype, truncated data or bytes after the data). The C harness of emit-c
// accepts and rejects the same files (testdata/reader/cases.txt, read by
// the tests of both).
absl::StatusOr<HostTensor> ParseNpy(absl::string_view bytes,
                                    absl::string_view name);

// The little-endian dtype string of `elem` in a .npy header: "<f2", "<f4",
// "|i1", ... (the element type table's).
absl::string_view NpyDescr(ElemType elem);

// The bytes of a .npy file holding `tensor`.
std::string SerializeNpy(const HostTensor& tensor);

// Reads and parses `path`; a file that cannot be opened is a NotFound error.
absl::StatusOr<HostTensor> ReadNpy(const std::string& path);

// Writes `tensor` to `path`, replacing the file.
absl::Status WriteNpy(const std::string& path, const HostTensor& tensor);

}  // namespace tessel

#endif  // TESSEL_LIBS_NPY_NPY_H_
