#!/usr/bin/env python3
"""Rebuild a float (trainable) Tesseract LSTM model from an integer ("fast") one.

lstmtraining refuses to --continue_from an integer model, and we may only start
from models we are allowed to ship (Debian's integer eng, or one a PyPI package
installs).  The int8 weights keep one scale per output row, so a float copy that
the trainer accepts can be rebuilt exactly up to the int8 rounding already done.

Usage:
    int2float.py IN.traineddata|IN.lstm OUT.lstm

The output is a recognizer-only .lstm (no unicharset/recoder inside, like the
component combine_tessdata -e extracts), so use it together with a
--traineddata that holds the matching lstm-unicharset and lstm-recoder:
    lstmtraining --continue_from OUT.lstm --traineddata IN.traineddata ...

Format facts (Tesseract 5.3.0, all little endian), checked against its
sources (weightmatrix.cpp, network.cpp, plumbing.cpp, lstm.cpp,
lstmrecognizer.cpp, tessdatamanager.cpp, matrix.h):
  * WeightMatrix = u8 mode (1=int8, 4=adam, 128=doubles format) then
      int8:  array<int8>  + u32 n + n x f64 scale
      float: array<f64> (+ updates, + adam sums only if the layer is training)
    array<T> = u32 dim1, u32 dim2, T "empty" cell, dim1*dim2 T.
  * The scale on disk is max|row|/127 (Tesseract divides by 127 once more in
    memory because int inputs are also x127).  So w = wi * scale_on_disk, for
    the bias column too.  Converting back with --convert_to_int gives the same
    int8 weights, because each row's max |wi| is 127.
  * Recognizer tail after the network: string network spec, i32 training
    flags (bit 1 = TF_INT_MODE), i32 iteration, i32 sample iteration,
    i32 null char, f32 adam beta, f32 learning rate, f32 momentum.
"""
import struct
import sys

import numpy as np

INT8_FLAG, ADAM_FLAG, DOUBLE_FLAG = 1, 4, 128
TF_INT_MODE = 1
TS_ENABLED = 1  # TrainingState value stored in each layer header
TESSDATA_LSTM = 17  # component index in the .traineddata table


class Reader:
    def __init__(self, data):
        self.d, self.p = data, 0

    def take(self, n):
        b = self.d[self.p:self.p + n]
        if len(b) != n:
            raise ValueError("truncated model at byte %d" % self.p)
        self.p += n
        return b

    def unpack(self, fmt):
        return struct.unpack("<" + fmt, self.take(struct.calcsize("<" + fmt)))

    def string(self):
        (n,) = self.unpack("I")
        return self.take(n).decode("utf-8")


def lstm_component(data):
    """Return the LSTM component bytes of a .traineddata, or data itself."""
    if data[0] == 0:  # a bare .lstm starts with NT_NONE, then the type name
        return data
    r = Reader(data)
    (n,) = r.unpack("I")
    offsets = r.unpack("%dq" % n)
    start = offsets[TESSDATA_LSTM]
    if start < 0:
        raise ValueError("traineddata has no lstm component")
    later = [o for o in offsets[TESSDATA_LSTM + 1:] if o >= 0]
    return data[start:later[0] if later else len(data)]


class Converter:
    def __init__(self, data):
        self.r = Reader(data)
        self.out = bytearray()
        self.total = 0

    def copy(self, n):
        self.out += self.r.take(n)

    def weights(self, label, training):
        """Convert one WeightMatrix; returns its number of rows (outputs)."""
        (mode,) = self.r.unpack("B")
        if not mode & DOUBLE_FLAG:
            raise ValueError("pre-4.0 weight format not supported")
        if not mode & INT8_FLAG:
            # Already float: copy unchanged, including any training arrays.
            start = self.r.p - 1
            rows = self.skip_array(8)
            if training:
                self.skip_array(8)
                if mode & ADAM_FLAG:
                    self.skip_array(8)
            self.out += self.r.d[start:self.r.p]
            return rows
        rows, cols = self.r.unpack("II")
        self.r.take(1)  # int8 empty cell
        wi = np.frombuffer(self.r.take(rows * cols), dtype=np.int8).reshape(rows, cols)
        (n,) = self.r.unpack("I")
        scales = np.frombuffer(self.r.take(8 * n), dtype="<f8")
        # Tesseract 5 pads the in-memory scales to its SIMD row count and saves
        # them padded (e.g. 112 for 111 rows); only the first `rows` count.
        if n < rows:
            raise ValueError("%s: %d scales for %d rows" % (label, n, rows))
        wf = wi.astype(np.float64) * scales[:rows, None]
        self.out += struct.pack("<B", (mode & ADAM_FLAG) | DOUBLE_FLAG)
        self.put_array(wf)
        if training:
            # A layer marked as training also stores its momentum (and adam)
            # state; zeros are what a fresh start would have.
            self.put_array(np.zeros_like(wf))
            if mode & ADAM_FLAG:
                self.put_array(np.zeros_like(wf))
        self.total += wf.size
        print("  %-28s %4d x %4d  int8 -> f64  |w|max %.3f" % (label, rows, cols, np.abs(wf).max()))
        return rows

    def skip_array(self, size):
        rows, cols = self.r.unpack("II")
        self.r.take(size * (1 + rows * cols))
        return rows

    def put_array(self, a):
        self.out += struct.pack("<IId", a.shape[0], a.shape[1], 0.0)
        self.out += a.astype("<f8").tobytes()

    def network(self, depth=0):
        start = self.r.p
        (t,) = self.r.unpack("b")
        if t != 0:
            raise ValueError("old numeric layer type %d not supported" % t)
        kind = self.r.string()
        training, _backprop, flags, ni, no, _nw = self.r.unpack("bbiiii")
        name = self.r.string()
        self.out += self.r.d[start:self.r.p]
        training = training == TS_ENABLED
        label = "  " * depth + name
        if kind in ("Series", "Parallel", "Replicated", "ParBidiLSTM",
                    "DepParUDLSTM", "Par2dLSTM", "RTLReversed", "TTBReversed",
                    "XYTranspose"):
            (n,) = self.r.unpack("I")
            self.out += struct.pack("<I", n)
            for _ in range(n):
                self.network(depth + 1)
            if flags & 64:  # NF_LAYER_SPECIFIC_LR: vector<float> of rates
                (k,) = self.r.unpack("I")
                self.out += struct.pack("<I", k)
                self.copy(4 * k)
        elif kind == "Input":
            self.copy(5 * 4)  # StaticShape: batch, height, width, depth, loss
        elif kind in ("Convolve", "Maxpool", "Reconfig"):
            self.copy(2 * 4)  # half/scale x and y
        elif kind in ("LSTM", "SummLSTM", "LSTMSoftmax", "LSTMBinarySoftmax"):
            (na,) = self.r.unpack("i")
            self.out += struct.pack("<i", na)
            nf = no if kind == "LSTMSoftmax" else (
                (no - 1).bit_length() if kind == "LSTMBinarySoftmax" else 0)
            is_2d = False
            for g in ("CI", "GI", "GF1", "GO", "GFS"):
                if g == "GFS" and not is_2d:
                    continue  # the y-direction forget gate exists only in 2-D
                rows = self.weights("%s.%s" % (label, g), training)
                if g == "CI":  # rows of CI = number of cells (ns)
                    is_2d = na - nf == ni + 2 * rows
            if nf:
                self.network(depth + 1)
        elif kind in ("Softmax", "SoftmaxNoCTC", "Relu", "Tanh", "Linear",
                      "Logistic", "LinLogistic", "LinTanh"):
            self.weights("%s (%s %d->%d)" % (label, kind, ni, no), training)
        else:
            raise ValueError("unsupported layer type %s" % kind)

    def run(self):
        print("layers and weight matrices:")
        self.network()
        tail = self.r.d[self.r.p:]
        r = Reader(tail)
        spec = r.string()
        if not spec.startswith("["):
            raise ValueError("unicharset embedded in the .lstm; not supported")
        after_flags = r.p + 4
        flags, it, sample_it, null_char = r.unpack("iiii")
        beta, lr, mom = r.unpack("fff")
        print("spec %s\nflags %d -> %d, iterations %d/%d, null %d, lr %g, "
              "momentum %g, adam beta %g" % (spec, flags, flags & ~TF_INT_MODE,
                                             it, sample_it, null_char, lr, mom, beta))
        # Everything after the network is kept except the int-mode flag.
        self.out += struct.pack("<I", len(spec.encode())) + spec.encode()
        self.out += struct.pack("<i", flags & ~TF_INT_MODE)
        self.out += tail[after_flags:]
        print("converted %d weights" % self.total)
        return bytes(self.out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], "rb") as f:
        data = lstm_component(f.read())
    out = Converter(data).run()
    with open(sys.argv[2], "wb") as f:
        f.write(out)
    print("wrote %s (%d bytes)" % (sys.argv[2], len(out)))


if __name__ == "__main__":
    main()
