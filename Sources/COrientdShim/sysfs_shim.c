// The machine's IIO devices read from sysfs by orientd itself. libiio 0.24 builds its local
// context all or nothing: one device anywhere with an attribute it cannot parse (an empty
// scan_elements/*_index) makes the whole context fail, and with it every good sensor. When that
// happens the shim serves the context from here instead: the same devices, channels and attribute
// files, read polled (no kernel buffers), as iio-sensor-proxy reads them.
#define _GNU_SOURCE // strverscmp
#include "iio_sysfs.h"
#include "orientd_shim.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define IIO_DEVICES "/sys/bus/iio/devices"

static int path_of(const struct orientd_sysfs_device *device, const char *file, char *path, size_t length)
{
    // Files are orientd's own constants; a device id comes from readdir: neither climbs out.
    if (strstr(file, "..") || strchr(device->id, '/'))
        return -EINVAL;
    int written = snprintf(path, length, IIO_DEVICES "/%s/%s", device->id, file);
    return written < 0 || (size_t)written >= length ? -ENAMETOOLONG : 0;
}

// libiio's convention: the text NUL-terminated, its trailing newline dropped, the length returned
// counting the NUL; a value longer than the buffer is refused (EFBIG), never cut.
static ssize_t read_text(const char *path, char *buffer, size_t length)
{
    if (length < 2)
        return -EINVAL;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return -errno;
    size_t filled = 0;
    for (;;) {
        ssize_t got = read(fd, buffer + filled, length - filled);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int saved = errno;
            close(fd);
            return -saved;
        }
        if (got == 0)
            break;
        filled += (size_t)got;
        if (filled == length) {
            close(fd);
            return -EFBIG;
        }
    }
    close(fd);
    if (filled > 0 && buffer[filled - 1] == '\n')
        filled--;
    buffer[filled] = '\0';
    return (ssize_t)strlen(buffer) + 1;
}

ssize_t orientd_sysfs_read_path(const char *path, char *buffer, size_t length)
{
    return read_text(path, buffer, length);
}

static char *read_string(const char *id, const char *file)
{
    struct orientd_sysfs_device device = { .id = (char *)id };
    char path[512], text[256];
    if (path_of(&device, file, path, sizeof(path)) < 0 || read_text(path, text, sizeof(text)) < 0)
        return NULL;
    return strdup(text);
}

static int by_kernel_order(const void *a, const void *b)
{
    return strverscmp(((const struct orientd_sysfs_device *)a)->id, ((const struct orientd_sysfs_device *)b)->id);
}

struct orientd_sysfs_devices *orientd_sysfs_list(void)
{
    DIR *directory = opendir(IIO_DEVICES);
    if (!directory)
        return NULL;
    struct orientd_sysfs_devices *list = calloc(1, sizeof(*list));
    if (!list) {
        closedir(directory);
        errno = ENOMEM;
        return NULL;
    }
    struct dirent *entry;
    while ((entry = readdir(directory))) {
        if (entry->d_name[0] == '.')
            continue;
        struct orientd_sysfs_device *grown = realloc(list->devices, (list->count + 1) * sizeof(*grown));
        if (!grown)
            break;
        list->devices = grown;
        struct orientd_sysfs_device *device = &list->devices[list->count];
        device->id = strdup(entry->d_name);
        if (!device->id)
            break;
        device->name = read_string(device->id, "name");
        device->label = read_string(device->id, "label");
        list->count++;
    }
    closedir(directory);
    qsort(list->devices, list->count, sizeof(*list->devices), by_kernel_order);
    return list;
}

void orientd_sysfs_free(struct orientd_sysfs_devices *list)
{
    if (!list)
        return;
    for (unsigned i = 0; i < list->count; i++) {
        free(list->devices[i].id);
        free(list->devices[i].name);
        free(list->devices[i].label);
    }
    free(list->devices);
    free(list);
}

static bool file_exists(const struct orientd_sysfs_device *device, const char *file)
{
    char path[512];
    return path_of(device, file, path, sizeof(path)) == 0 && access(path, F_OK) == 0;
}

bool orientd_sysfs_has_input_channel(const struct orientd_sysfs_device *device, const char *channel)
{
    char file[256];
    snprintf(file, sizeof(file), "in_%s_raw", channel);
    if (file_exists(device, file))
        return true;
    snprintf(file, sizeof(file), "in_%s_input", channel);
    return file_exists(device, file);
}

ssize_t orientd_sysfs_read_file(const struct orientd_sysfs_device *device, const char *file,
                                char *buffer, size_t length)
{
    char path[512];
    int problem = path_of(device, file, path, sizeof(path));
    return problem < 0 ? problem : read_text(path, buffer, length);
}

ssize_t orientd_sysfs_read_channel_attribute(const struct orientd_sysfs_device *device, const char *channel,
                                             const char *attribute, char *buffer, size_t length)
{
    // The channel's own file first (in_accel_x_scale), then the one its type shares (in_accel_scale),
    // as libiio resolves them.
    char file[256];
    snprintf(file, sizeof(file), "in_%s_%s", channel, attribute);
    ssize_t result = orientd_sysfs_read_file(device, file, buffer, length);
    if (result != -ENOENT)
        return result;
    size_t type = strcspn(channel, "_");
    while (type > 0 && channel[type - 1] >= '0' && channel[type - 1] <= '9')
        type--;
    if (type == strlen(channel))
        return -ENOENT;
    snprintf(file, sizeof(file), "in_%.*s_%s", (int)type, channel, attribute);
    return orientd_sysfs_read_file(device, file, buffer, length);
}

int orientd_sysfs_write_file(const struct orientd_sysfs_device *device, const char *file, const char *value)
{
    char path[512];
    int problem = path_of(device, file, path, sizeof(path));
    if (problem < 0)
        return problem;
    int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return -errno;
    size_t length = strlen(value);
    ssize_t written = write(fd, value, length);
    int saved = errno;
    close(fd);
    if (written < 0)
        return -saved;
    return (size_t)written == length ? 0 : -EIO;
}

// Whether libiio 0.24 can parse a scan element's attribute: an index is a number, a type reads
// "le:s12/16>>4" (optionally with a repeat, "le:s12/16X2>>4").
static bool libiio_parses(const char *attribute, const char *text)
{
    size_t length = strlen(attribute);
    if (length > 6 && strcmp(attribute + length - 6, "_index") == 0) {
        char *end;
        strtol(text, &end, 0);
        return end != text;
    }
    if (length > 5 && strcmp(attribute + length - 5, "_type") == 0) {
        char endian, sign;
        unsigned bits, storage, repeat, shift;
        return sscanf(text, "%ce:%c%u/%uX%u>>%u", &endian, &sign, &bits, &storage, &repeat, &shift) == 6
            || sscanf(text, "%ce:%c%u/%u>>%u", &endian, &sign, &bits, &storage, &shift) == 5;
    }
    return true;
}

char *orientd_sysfs_find_fault(const struct orientd_sysfs_devices *list)
{
    for (unsigned i = 0; i < list->count; i++) {
        const struct orientd_sysfs_device *device = &list->devices[i];
        char path[512];
        if (path_of(device, "scan_elements", path, sizeof(path)) < 0)
            continue;
        DIR *directory = opendir(path);
        if (!directory)
            continue;
        char *fault = NULL;
        struct dirent *entry;
        while (!fault && (entry = readdir(directory))) {
            if (entry->d_name[0] == '.')
                continue;
            char file[512], text[128];
            snprintf(file, sizeof(file), "scan_elements/%s", entry->d_name);
            ssize_t result = orientd_sysfs_read_file(device, file, text, sizeof(text));
            if (result >= 0 && libiio_parses(entry->d_name, text))
                continue;
            char what[640];
            if (result < 0)
                snprintf(what, sizeof(what), "an unreadable %s", file);
            else if (!text[0])
                snprintf(what, sizeof(what), "an empty %s", file);
            else
                snprintf(what, sizeof(what), "%s holding \"%s\", which libiio cannot parse", file, text);
            size_t size = strlen(device->id) + (device->name ? strlen(device->name) : 0) + strlen(what) + 16;
            fault = malloc(size);
            if (fault)
                snprintf(fault, size, "%s%s%s%s has %s", device->id,
                         device->name ? " (" : "", device->name ? device->name : "", device->name ? ")" : "", what);
        }
        closedir(directory);
        if (fault)
            return fault;
    }
    return NULL;
}
