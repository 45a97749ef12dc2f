#ifndef SHIM_LINUX_ERR_H
#define SHIM_LINUX_ERR_H
#define MAX_ERRNO	4095
#endif
