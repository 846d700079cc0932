#include <stdint.h>
#include <unistd.h>
#include <sys/un.h>
#include <sys/socket.h>
#include <string.h>
#include <limits.h>
#include <glob.h>
#include <arpa/inet.h>
#include "umockdev_shim.h"

#include <stdio.h>
#include <umockdev.h>

struct umockdev_shim_testbed {
    UMockdevTestbed *testbed;
};

umockdev_shim_testbed *umockdev_shim_testbed_new(void)
{
    umockdev_shim_testbed *shim = g_new0(umockdev_shim_testbed, 1);
    shim->testbed = umockdev_testbed_new();
    return shim;
}

void umockdev_shim_testbed_free(umockdev_shim_testbed *shim)
{
    if (!shim)
        return;
    g_object_unref(shim->testbed);
    g_free(shim);
}

const char *umockdev_shim_testbed_root(const umockdev_shim_testbed *shim)
{
    return umockdev_testbed_get_root_dir(shim->testbed);
}

int umockdev_shim_testbed_add(umockdev_shim_testbed *shim, const char *description, char *error,
                              unsigned long error_length)
{
    GError *gerror = NULL;
    if (umockdev_testbed_add_from_string(shim->testbed, description, &gerror))
        return 1;
    snprintf(error, error_length, "%s", gerror ? gerror->message : "unknown error");
    g_clear_error(&gerror);
    return 0;
}

/* umockdev_testbed_uevent() looks the device up through libudev, which only a process under
 * umockdev's preload sees in the testbed; the tests are not such a process. So the event is built
 * here, in the format umockdev's uevent_sender (and systemd's device-monitor) use: a "libudev"
 * header, then NUL-separated KEY=VALUE properties, sent to every listener's socket in the testbed. */
struct monitor_header {
    char prefix[8];
    unsigned int magic;
    unsigned int header_size;
    unsigned int properties_off;
    unsigned int properties_len;
    unsigned int filter_subsystem_hash;
    unsigned int filter_devtype_hash;
    unsigned int filter_tag_bloom_hi;
    unsigned int filter_tag_bloom_lo;
};

/* MurmurHash2, as systemd's device-monitor hashes the subsystem for its socket filter. */
static uint32_t subsystem_hash(const char *text)
{
    const uint32_t m = 0x5bd1e995;
    size_t length = strlen(text);
    uint32_t hash = (uint32_t)length;
    const unsigned char *data = (const unsigned char *)text;
    for (; length >= 4; data += 4, length -= 4) {
        uint32_t k;
        memcpy(&k, data, 4);
        k *= m;
        k ^= k >> 24;
        k *= m;
        hash *= m;
        hash ^= k;
    }
    switch (length) {
    case 3: hash ^= (uint32_t)data[2] << 16; /* fall through */
    case 2: hash ^= (uint32_t)data[1] << 8; /* fall through */
    case 1: hash ^= data[0]; hash *= m;
    }
    hash ^= hash >> 13;
    hash *= m;
    hash ^= hash >> 15;
    return hash;
}

void umockdev_shim_testbed_uevent(umockdev_shim_testbed *shim, const char *syspath,
                                  const char *action)
{
    umockdev_shim_testbed_uevent_in(shim, syspath, "iio", action);
}

void umockdev_shim_testbed_uevent_in(umockdev_shim_testbed *shim, const char *syspath, const char *subsystem,
                                     const char *action)
{
    static unsigned long long seqnum = 1;
    const char *devpath = strncmp(syspath, "/sys", 4) == 0 ? syspath + 4 : syspath;
    const char *name = strrchr(devpath, '/') ? strrchr(devpath, '/') + 1 : devpath;
    char properties[1024];
    int length = snprintf(properties, sizeof properties,
                          "ACTION=%s%cDEVPATH=%s%cSUBSYSTEM=%s%cSEQNUM=%llu%cDEVNAME=/dev/%s%s",
                          action, 0, devpath, 0, subsystem, 0, seqnum++, 0,
                          strcmp(subsystem, "input") == 0 ? "input/" : "", name) + 1;

    struct monitor_header header;
    memset(&header, 0, sizeof header);
    memcpy(header.prefix, "libudev", 8);
    header.magic = htonl(0xfeedcafe);
    header.header_size = sizeof header;
    header.properties_off = sizeof header;
    header.properties_len = (unsigned int)length;
    header.filter_subsystem_hash = htonl(subsystem_hash(subsystem));
    struct iovec parts[2] = { { &header, sizeof header }, { properties, (size_t)length } };
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = parts;
    message.msg_iovlen = 2;

    char pattern[PATH_MAX];
    snprintf(pattern, sizeof pattern, "%s/event[0-9]*", umockdev_testbed_get_root_dir(shim->testbed));
    glob_t listeners;
    if (glob(pattern, GLOB_NOSORT, NULL, &listeners) != 0)
        return;
    for (size_t i = 0; i < listeners.gl_pathc; ++i) {
        struct sockaddr_un address;
        memset(&address, 0, sizeof address);
        address.sun_family = AF_UNIX;
        snprintf(address.sun_path, sizeof address.sun_path, "%s", listeners.gl_pathv[i]);
        int fd = socket(AF_UNIX, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0)
            continue;
        if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0)
            sendmsg(fd, &message, 0);
        close(fd);
    }
    globfree(&listeners);
}

void umockdev_shim_testbed_remove(umockdev_shim_testbed *shim, const char *syspath)
{
    umockdev_testbed_remove_device(shim->testbed, syspath);
}

void umockdev_shim_testbed_set_property(umockdev_shim_testbed *shim, const char *syspath,
                                        const char *name, const char *value)
{
    umockdev_testbed_set_property(shim->testbed, syspath, name, value);
}
