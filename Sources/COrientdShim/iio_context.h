// Private to the shim: the context behind the opaque handle, shared by its two source files.
#ifndef ORIENTD_IIO_CONTEXT_H
#define ORIENTD_IIO_CONTEXT_H

#include <iio.h>
#include "orientd_shim.h"

struct orientd_iio_context {
    struct iio_context *iio;
};

/// The device at index `device`, or NULL.
struct iio_device *orientd_iio_device_at(const orientd_iio_context *context, unsigned device);

#endif
