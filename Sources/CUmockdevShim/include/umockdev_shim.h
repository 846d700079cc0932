// Test-only: a plain C face of libumockdev, so Swift tests build emulated sysfs/udev devices
// without importing GLib. The testbed is a directory; a process started with
// LD_PRELOAD=libumockdev-preload.so.0 and UMOCKDEV_DIR=<root> sees it as /sys, /dev and udev.
#ifndef UMOCKDEV_SHIM_H
#define UMOCKDEV_SHIM_H

typedef struct umockdev_shim_testbed umockdev_shim_testbed;

umockdev_shim_testbed *umockdev_shim_testbed_new(void);
void umockdev_shim_testbed_free(umockdev_shim_testbed *testbed);
/// The directory that stands in for / (owned by the testbed).
const char *umockdev_shim_testbed_root(const umockdev_shim_testbed *testbed);
/// Adds devices from umockdev's text format (P:, E:, A: lines). Returns 1 on success, 0 on error
/// with the message copied into error.
int umockdev_shim_testbed_add(umockdev_shim_testbed *testbed, const char *description,
                              char *error, unsigned long error_length);
/// Emits a uevent ("add", "remove", "change") for a device's /sys path.
void umockdev_shim_testbed_uevent(umockdev_shim_testbed *testbed, const char *syspath,
                                  const char *action);
/// Removes a device (its /sys directory and udev record); emits no uevent.
void umockdev_shim_testbed_remove(umockdev_shim_testbed *testbed, const char *syspath);
/// Sets a udev property of a device (as a hwdb update would); emits no uevent.
void umockdev_shim_testbed_set_property(umockdev_shim_testbed *testbed, const char *syspath,
                                        const char *name, const char *value);
#endif
