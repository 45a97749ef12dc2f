#include "kernel_errseq.h"
unsigned long kernel_errseq_warnings;
