// An IIO device's event descriptor, the file the kernel raises the accelerometer's own motion
// interrupt on: asked of /dev/iio:deviceN with IIO_GET_EVENT_FD_IOCTL, armed through the sysfs
// files of the device's events/ directory, read as struct iio_event_data records.
#include "iio_sysfs.h"
#include "orientd_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/iio/events.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

// "iio:device" and digits only: the name goes into /dev and /sys paths opened as root.
static bool is_iio_sysname(const char *sysname)
{
    const char *prefix = "iio:device";
    size_t length = strlen(prefix);
    if (strncmp(sysname, prefix, length) != 0 || sysname[length] == '\0')
        return false;
    for (const char *digit = sysname + length; *digit; digit++)
        if (*digit < '0' || *digit > '9')
            return false;
    return true;
}

int orientd_iio_event_open(const char *sysname)
{
    if (!is_iio_sysname(sysname))
        return -EINVAL;
    char path[64];
    snprintf(path, sizeof(path), "/dev/%s", sysname);
    int device = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (device < 0)
        return -errno;
    int events = -1;
    int result = ioctl(device, IIO_GET_EVENT_FD_IOCTL, &events);
    int saved = errno;
    close(device);
    if (result < 0)
        return -saved;
    if (events < 0)
        return -EBADF;
    // The kernel's descriptor is close-on-exec already; orientd reads it without blocking.
    int flags = fcntl(events, F_GETFL);
    if (flags < 0 || fcntl(events, F_SETFL, flags | O_NONBLOCK) < 0 || fcntl(events, F_SETFD, FD_CLOEXEC) < 0) {
        saved = errno;
        close(events);
        return -saved;
    }
    return events;
}

int orientd_iio_event_write(const char *sysname, const char *file, const char *value)
{
    if (!is_iio_sysname(sysname) || strchr(file, '/') || strstr(file, ".."))
        return -EINVAL;
    char relative[256];
    int written = snprintf(relative, sizeof(relative), "events/%s", file);
    if (written < 0 || (size_t)written >= sizeof(relative))
        return -ENAMETOOLONG;
    struct orientd_sysfs_device device = { .id = (char *)sysname };
    return orientd_sysfs_write_file(&device, relative, value);
}

ssize_t orientd_iio_event_drain(int events)
{
    struct iio_event_data records[16];
    ssize_t count = 0;
    for (;;) {
        ssize_t got = read(events, records, sizeof(records));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return errno == EAGAIN ? count : -errno;
        if (got == 0)
            return count > 0 ? count : -EPIPE;
        count += got / (ssize_t)sizeof(records[0]);
        if ((size_t)got < sizeof(records))
            return count;
    }
}
