#!/usr/bin/env python3
"""Writes the .npy files of cases.txt: the cases both .npy readers (libs/npy
for run-sim, libs/emitc/runtime/tessel_npy.c for emit-c's harness) must
accept or reject alike. Each file is a 2x3 array (f32 i/4, or i8 i - 2) as
NumPy writes it, or that file with one thing changed. Run it in this folder
after changing a case; the files are checked in.
"""
import struct

F32 = [i / 4 for i in range(6)]
I8 = [i - 2 for i in range(6)]


def header(descr, shape, fortran="False", quote="'"):
    q = quote
    dims = "".join(f"{d}, " for d in shape).rstrip(", ")
    if len(shape) == 1:
        dims += ","
    return (f"{{{q}descr{q}: {q}{descr}{q}, {q}fortran_order{q}: {fortran}, "
            f"{q}shape{q}: ({dims}), }}")


def npy(head, data, major=1, minor=0, pad=True):
    """A file: magic, version, header length, `head` padded with spaces and
    a newline so that the data starts 64-aligned (NumPy's layout), data."""
    head = head.encode() if isinstance(head, str) else head
    length_bytes = 2 if major == 1 else 4
    prefix = 6 + 2 + length_bytes
    if pad:
        total = prefix + len(head) + 1
        head += b" " * (-total % 64) + b"\n"
    length = struct.pack("<H" if length_bytes == 2 else "<I", len(head))
    return b"\x93NUMPY" + bytes([major, minor]) + length + head + data


def f32(order="<", values=F32):
    return struct.pack(order + "6f", *values)


def i8():
    return struct.pack("6b", *I8)


# The 2x3 matrix in column-major order.
F32_FORTRAN = [F32[r * 3 + c] for c in range(3) for r in range(2)]

CASES = {
    # Accepted: what NumPy writes, and what it reads.
    "f32_2x3": npy(header("<f4", (2, 3)), f32()),
    "f32_fortran": npy(header("<f4", (2, 3), fortran="True"),
                       f32(values=F32_FORTRAN)),
    "f32_big_endian": npy(header(">f4", (2, 3)), f32(">")),
    "f32_big_endian_fortran": npy(header(">f4", (2, 3), fortran="True"),
                                  f32(">", F32_FORTRAN)),
    "f32_native_order": npy(header("=f4", (2, 3)), f32()),
    "f32_no_order": npy(header("f4", (2, 3)), f32()),
    "f32_v2": npy(header("<f4", (2, 3)), f32(), major=2),
    "f32_v3": npy(header("<f4", (2, 3)), f32(), major=3),
    "f32_hand_written": npy(
        '{"shape":(2L,3L),"descr":"<f4" ,  "fortran_order":False}', f32()),
    "i8_2x3": npy(header("|i1", (2, 3)), i8()),
    "i8_little": npy(header("<i1", (2, 3)), i8()),
    "i8_big": npy(header(">i1", (2, 3)), i8()),
    # Rejected.
    "empty": b"",
    "bad_magic": b"\x93NUMPX" + npy(header("<f4", (2, 3)), f32())[6:],
    "version_4": npy(header("<f4", (2, 3)), f32(), major=4),
    "version_1_1": npy(header("<f4", (2, 3)), f32(), minor=1),
    "header_cut": npy(header("<f4", (2, 3)), b"")[:40],
    "header_not_dict": npy("['<f4', False, (2, 3)]", f32()),
    "header_no_shape": npy("{'descr': '<f4', 'fortran_order': False}", f32()),
    "header_unknown_key": npy(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), "
        "'align': True}", f32()),
    "header_bad_order": npy(
        "{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 3)}", f32()),
    "header_bad_shape": npy(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, x)}", f32()),
    "header_negative_dim": npy(header("<f4", (-2, 3)), f32()),
    "header_text_after": npy(header("<f4", (2, 3)) + " 1", f32()),
    "header_nul_after": npy(header("<f4", (2, 3)).encode() + b"\0x", f32()),
    "header_unclosed": npy(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)", f32()),
    "dtype_f8": npy(header("<f8", (2, 3)), struct.pack("<6d", *F32)),
    "dtype_i8_for_f32": npy(header("<i8", (2, 3)), struct.pack("<6q", *I8)),
    "dtype_bar_f4": npy(header("|f4", (2, 3)), f32()),
    "dtype_unknown": npy(header("<f5", (2, 3)), f32()),
    "shape_transposed": npy(header("<f4", (3, 2)), f32()),
    "shape_flat": npy(header("<f4", (6,)), f32()),
    "data_short": npy(header("<f4", (2, 3)), f32()[:-1]),
    "data_trailing": npy(header("<f4", (2, 3)), f32() + b"\0" * 5),
}

for name, data in CASES.items():
    with open(name + ".npy", "wb") as out:
        out.write(data)
