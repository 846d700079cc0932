// Private to the shim: the context behind the opaque handle, shared by its two source files.
#ifndef ORIENTD_IIO_CONTEXT_H
#define ORIENTD_IIO_CONTEXT_H

#include <iio.h>
#include "orientd_shim.h"
#include "iio_sysfs.h"

struct orientd_iio_context {
    struct iio_context *iio;                // NULL when libiio refused the local context
    struct orientd_sysfs_devices *sysfs;    // the local devices then, read by sysfs_shim.c
    char *refusal;                          // why libiio refused it, when it did
};

/// The libiio device at index `device`, or NULL (always NULL for a context read from sysfs).
struct iio_device *orientd_iio_device_at(const orientd_iio_context *context, unsigned device);

#endif
