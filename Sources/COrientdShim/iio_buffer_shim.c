// Buffered capture: the kernel fills a buffer with scans of accel_x, accel_y, accel_z (and its
// own timestamp, where the device has one); orientd drains it without blocking.
#include "orientd_shim.h"
#include "iio_context.h"

#include <errno.h>
#include <iio.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const axis_names[3] = {"accel_x", "accel_y", "accel_z"};

struct orientd_iio_buffer {
    struct iio_device *device;
    struct iio_channel *axes[3];
    struct iio_channel *timestamp;
    struct iio_buffer *buffer;
};

static struct iio_channel *scan_element(struct iio_device *device, const char *name)
{
    struct iio_channel *channel = iio_device_find_channel(device, name, false);
    return channel && iio_channel_is_scan_element(channel) ? channel : NULL;
}

bool orientd_iio_device_is_buffer_capable(const orientd_iio_context *context, unsigned device)
{
    struct iio_device *dev = orientd_iio_device_at(context, device);
    if (!dev)
        return false;
    for (int axis = 0; axis < 3; axis++)
        if (!scan_element(dev, axis_names[axis]))
            return false;
    return true;
}

static void disable_channels(orientd_iio_buffer *buffer)
{
    for (int axis = 0; axis < 3; axis++)
        if (buffer->axes[axis])
            iio_channel_disable(buffer->axes[axis]);
    if (buffer->timestamp)
        iio_channel_disable(buffer->timestamp);
}

bool orientd_iio_device_is_trigger(const orientd_iio_context *context, unsigned device)
{
    const struct iio_device *dev = orientd_iio_device_at(context, device);
    return dev && iio_device_is_trigger(dev);
}

ssize_t orientd_iio_device_current_trigger(const orientd_iio_context *context, unsigned device,
                                           char *name, size_t length)
{
    const struct iio_device *dev = orientd_iio_device_at(context, device);
    const struct iio_device *current = NULL;
    if (!dev || length == 0)
        return -ENOENT;
    // libiio answers -ENOENT without a trigger/current_trigger file, and an error (EIO) for the
    // empty one the kernel shows while no trigger is set.
    int result = iio_device_get_trigger(dev, &current);
    if (result == -ENOENT)
        return result;
    const char *current_name = current ? iio_device_get_name(current) : NULL;
    snprintf(name, length, "%s", current_name ? current_name : "");
    return (ssize_t)strlen(name);
}

int orientd_iio_device_set_trigger_named(const orientd_iio_context *context, unsigned device, const char *name)
{
    const struct iio_device *dev = orientd_iio_device_at(context, device);
    if (!dev)
        return -ENODEV;
    for (unsigned index = 0; index < iio_context_get_devices_count(context->iio); index++) {
        const struct iio_device *trigger = iio_context_get_device(context->iio, index);
        const char *trigger_name = iio_device_get_name(trigger);
        if (iio_device_is_trigger(trigger) && trigger_name && strcmp(trigger_name, name) == 0)
            return iio_device_set_trigger(dev, trigger);
    }
    return -ENOENT;
}

orientd_iio_buffer *orientd_iio_buffer_open(const orientd_iio_context *context, unsigned device,
                                            unsigned kernel_samples, int *error)
{
    struct iio_device *dev = orientd_iio_device_at(context, device);
    orientd_iio_buffer *buffer = dev ? calloc(1, sizeof(*buffer)) : NULL;
    if (!buffer) {
        *error = dev ? ENOMEM : ENODEV;
        return NULL;
    }
    buffer->device = dev;
    for (int axis = 0; axis < 3; axis++) {
        buffer->axes[axis] = scan_element(dev, axis_names[axis]);
        if (!buffer->axes[axis]) {
            *error = ENOTSUP;
            disable_channels(buffer);
            free(buffer);
            return NULL;
        }
        iio_channel_enable(buffer->axes[axis]);
    }
    buffer->timestamp = scan_element(dev, "timestamp");
    if (buffer->timestamp)
        iio_channel_enable(buffer->timestamp);
    // One scan per refill, so draining takes whatever has arrived; the kernel keeps
    // kernel_samples scans (buffer/length) meanwhile.
    iio_device_set_kernel_buffers_count(dev, kernel_samples);
    errno = 0;
    buffer->buffer = iio_device_create_buffer(dev, 1, false);
    if (!buffer->buffer) {
        *error = errno ? errno : EIO;
        disable_channels(buffer);
        free(buffer);
        return NULL;
    }
    // Not over iiod (-ENOSYS), where take() bounds its refills by time instead.
    iio_buffer_set_blocking_mode(buffer->buffer, false);
    return buffer;
}

int orientd_iio_buffer_descriptor(const orientd_iio_buffer *buffer)
{
    return iio_buffer_get_poll_fd(buffer->buffer);
}

bool orientd_iio_buffer_has_timestamps(const orientd_iio_buffer *buffer)
{
    return buffer->timestamp != NULL;
}

/// A converted sample of `channel` at `source` as a signed (or unsigned) integer. libiio's
/// conversion leaves `length` bits in host order (little-endian here), sign-extended within them.
static int64_t sample_value(const struct iio_channel *channel, const void *source)
{
    const struct iio_data_format *format = iio_channel_get_data_format(channel);
    uint8_t converted[8] = {0};
    unsigned bytes = format->length / 8;
    if (bytes == 0 || bytes > sizeof(converted))
        return 0;
    iio_channel_convert(channel, converted, source);
    uint64_t value = 0;
    for (unsigned byte = 0; byte < bytes; byte++)
        value |= (uint64_t)converted[byte] << (8 * byte);
    if (format->is_signed && bytes < 8 && (value >> (8 * bytes - 1)) & 1)
        value |= ~(uint64_t)0 << (8 * bytes);
    return (int64_t)value;
}

static double monotonic_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

ssize_t orientd_iio_buffer_take(orientd_iio_buffer *buffer, double *xyz, int64_t *timestamps, size_t max,
                                double budget)
{
    size_t taken = 0;
    // A local buffer has a descriptor that says whether a scan waits. Over iiod there is none:
    // each refill is one round trip that returns a waiting scan or waits for the next one, so
    // refills go on for `budget` seconds, enough to drain a backlog at any round-trip time.
    int descriptor = iio_buffer_get_poll_fd(buffer->buffer);
    double started = monotonic_seconds();
    while (taken < max) {
        if (descriptor >= 0) {
            struct pollfd ready = {.fd = descriptor, .events = POLLIN};
            if (poll(&ready, 1, 0) != 1)
                break;
        }
        ssize_t bytes = iio_buffer_refill(buffer->buffer);
        if (bytes <= 0)
            return taken > 0 || bytes == 0 || bytes == -EAGAIN ? (ssize_t)taken : bytes;
        ptrdiff_t step = iio_buffer_step(buffer->buffer);
        const char *end = iio_buffer_end(buffer->buffer);
        const char *first = iio_buffer_first(buffer->buffer, buffer->axes[0]);
        for (const char *scan = first; step > 0 && scan < end && taken < max; scan += step) {
            ptrdiff_t offset = scan - first;
            for (int axis = 0; axis < 3; axis++) {
                const char *at = (const char *)iio_buffer_first(buffer->buffer, buffer->axes[axis]) + offset;
                xyz[taken * 3 + axis] = (double)sample_value(buffer->axes[axis], at);
            }
            timestamps[taken] = buffer->timestamp
                ? sample_value(buffer->timestamp, (const char *)iio_buffer_first(buffer->buffer, buffer->timestamp) + offset)
                : 0;
            taken++;
        }
        if (descriptor < 0 && monotonic_seconds() - started >= budget)
            break;
    }
    return (ssize_t)taken;
}

void orientd_iio_buffer_close(orientd_iio_buffer *buffer)
{
    if (!buffer)
        return;
    iio_buffer_destroy(buffer->buffer);
    disable_channels(buffer);
    free(buffer);
}
