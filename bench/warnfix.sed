# file: port.h
# The rest of the library change bench/README.md proposes: WARN()'s value is
# the condition, known to be 1 on the warning path (not the function's
# result), and the warning function is cold, as the kernel's WARN() and
# __warn_printk() are. Then errseq_set() compiles to the kernel's code.
s/^int errseq_port_warn(int err);$/int errseq_port_warn(int err) __attribute__((cold));/
s/^#define WARN(cond, fmt, err)\t(unlikely(cond) ? errseq_port_warn(err) : 0)$/#define WARN(cond, fmt, err)\t(unlikely(cond) ? (errseq_port_warn(err), 1) : 0)/
