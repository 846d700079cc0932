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
/// Emits a uevent ("add", "remove", "change") for an IIO device's /sys path.
void umockdev_shim_testbed_uevent(umockdev_shim_testbed *testbed, const char *syspath,
                                  const char *action);
/// The same for a device of SUBSYSTEM ("input", "hwmon").
void umockdev_shim_testbed_uevent_in(umockdev_shim_testbed *testbed, const char *syspath, const char *subsystem,
                                     const char *action);
/// Removes a device (its /sys directory and udev record); emits no uevent.
void umockdev_shim_testbed_remove(umockdev_shim_testbed *testbed, const char *syspath);
/// Sets a udev property of a device (as a hwdb update would); emits no uevent.
void umockdev_shim_testbed_set_property(umockdev_shim_testbed *testbed, const char *syspath,
                                        const char *name, const char *value);

typedef struct umockdev_shim_evdev umockdev_shim_evdev;

/// Emulates DEVNODE ("/dev/input/event7", which the testbed's description must create) as an
/// evdev device named NAME: an accelerometer (ABS_X, ABS_Y, ABS_Z, INPUT_PROP_ACCELEROMETER, axes
/// with RESOLUTION units per g, 0 for none) when ACCELEROMETER is non-zero, else a switch device
/// with SW_FRONT_PROXIMITY. Returns NULL with the message in error on failure.
umockdev_shim_evdev *umockdev_shim_evdev_attach(umockdev_shim_testbed *testbed, const char *devnode, const char *name,
                                                int accelerometer, int resolution, char *error, unsigned long error_length);
/// The values EVIOCGABS reports from now on.
void umockdev_shim_evdev_set_axes(umockdev_shim_evdev *device, int x, int y, int z);
/// The state EVIOCGSW reports for SW_FRONT_PROXIMITY from now on.
void umockdev_shim_evdev_set_near(umockdev_shim_evdev *device, int near);
/// How many ioctls the device has answered.
int umockdev_shim_evdev_ioctls(const umockdev_shim_evdev *device);
void umockdev_shim_evdev_free(umockdev_shim_evdev *device);

typedef struct umockdev_shim_iio_events umockdev_shim_iio_events;

/// Emulates DEVNODE ("/dev/iio:device0") as an IIO device node whose IIO_GET_EVENT_FD_IOCTL
/// answers DESCRIPTOR, a number the emulated process already has open (a negative DESCRIPTOR
/// fails the ioctl with that errno). Returns NULL with the message in error on failure.
umockdev_shim_iio_events *umockdev_shim_iio_events_attach(umockdev_shim_testbed *testbed, const char *devnode, int descriptor,
                                                          char *error, unsigned long error_length);
/// What IIO_GET_EVENT_FD_IOCTL answers from now on.
void umockdev_shim_iio_events_answer(umockdev_shim_iio_events *device, int descriptor);
/// How many IIO_GET_EVENT_FD_IOCTL were answered.
int umockdev_shim_iio_events_asked(const umockdev_shim_iio_events *device);
void umockdev_shim_iio_events_free(umockdev_shim_iio_events *device);
#endif
