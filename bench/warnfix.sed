# file: port.h
# The library change bench/README.md proposes: test WARN's condition inline
# and call out of line only when it is true, as the kernel's WARN() does.
s/^int errseq_port_warn(int cond, int err);$/int errseq_port_warn(int cond, int err) __attribute__((cold));/
s/^#define WARN(cond, fmt, err)\terrseq_port_warn(!!(cond), (err))$/#define WARN(cond, fmt, err)\t(unlikely(cond) ? (errseq_port_warn(1, (err)), 1) : 0)/
