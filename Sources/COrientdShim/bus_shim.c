#define _GNU_SOURCE
#include "orientd_bus.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

#define NAME "net.hadess.SensorProxy"
#define PATH "/net/hadess/SensorProxy"
#define COMPASS_PATH "/net/hadess/SensorProxy/Compass"
#define COMPASS_INTERFACE "net.hadess.SensorProxy.Compass"
#define POLKIT_ACTION "net.hadess.SensorProxy.claim-sensor"
#define SENSORS 4
/// A client that sends claims faster than the sensor starts is answered at once past this many
/// held claims; one that floods polkit checks is refused past this many in flight.
#define MAX_HELD_CLAIMS 256
#define MAX_AUTHORIZATIONS 256

struct sensor_claims {
    struct orientd_bus *bus;
    int sensor;
    /// Who claims the sensor; made on the first claim and dropped when it empties, because an
    /// empty track is put on sd-bus's dispatch queue at once and would call its handler forever.
    sd_bus_track *track;
    sd_bus_message *held[MAX_HELD_CLAIMS];
    unsigned held_count;
};

struct orientd_bus {
    sd_bus *bus;
    orientd_bus_callbacks callbacks;
    bool check_polkit;
    unsigned authorizations;

    int has_accelerometer;
    char orientation[16];
    char tilt[16];
    int has_light;
    double light_level;
    char light_unit[8];
    int has_proximity;
    int proximity_near;
    int has_compass;
    double heading;

    struct sensor_claims claims[SENSORS];
};

static void copy_text(char *to, size_t length, const char *from)
{
    snprintf(to, length, "%s", from ? from : "");
}

// MARK: Properties

static int append_property(sd_bus_message *m, struct orientd_bus *b, const char *name)
{
    if (!strcmp(name, "HasAccelerometer")) return sd_bus_message_append(m, "b", b->has_accelerometer);
    if (!strcmp(name, "AccelerometerOrientation")) return sd_bus_message_append(m, "s", b->orientation);
    if (!strcmp(name, "AccelerometerTilt")) return sd_bus_message_append(m, "s", b->tilt);
    if (!strcmp(name, "HasAmbientLight")) return sd_bus_message_append(m, "b", b->has_light);
    if (!strcmp(name, "LightLevelUnit")) return sd_bus_message_append(m, "s", b->light_unit);
    if (!strcmp(name, "LightLevel")) return sd_bus_message_append(m, "d", b->light_level);
    if (!strcmp(name, "HasProximity")) return sd_bus_message_append(m, "b", b->has_proximity);
    if (!strcmp(name, "ProximityNear")) return sd_bus_message_append(m, "b", b->proximity_near);
    if (!strcmp(name, "HasCompass")) return sd_bus_message_append(m, "b", b->has_compass);
    if (!strcmp(name, "CompassHeading")) return sd_bus_message_append(m, "d", b->heading);
    return -ENOENT;
}

static const char *signature_of(const char *name)
{
    if (!strcmp(name, "AccelerometerOrientation") || !strcmp(name, "AccelerometerTilt") || !strcmp(name, "LightLevelUnit"))
        return "s";
    if (!strcmp(name, "LightLevel") || !strcmp(name, "CompassHeading")) return "d";
    return "b";
}

static int get_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
    (void)bus; (void)path; (void)interface; (void)error;
    return append_property(reply, userdata, property);
}

// MARK: Claims

static int sensor_of(const char *member)
{
    const char *name = member + (strncmp(member, "Claim", 5) == 0 ? 5 : 7);
    if (!strcmp(name, "Accelerometer")) return ORIENTD_BUS_ACCELEROMETER;
    if (!strcmp(name, "Light")) return ORIENTD_BUS_LIGHT;
    if (!strcmp(name, "Proximity")) return ORIENTD_BUS_PROXIMITY;
    return ORIENTD_BUS_COMPASS;
}

static int on_claims_empty(sd_bus_track *track, void *userdata)
{
    struct sensor_claims *claims = userdata;
    // A client that released before its claim was answered still gets its answer.
    orientd_bus_settle(claims->bus, claims->sensor);
    sd_bus_track_unref(track);
    claims->track = NULL;
    claims->bus->callbacks.demand_changed(claims->bus->callbacks.context, claims->sensor, false);
    return 1;
}

static int claim(struct orientd_bus *b, sd_bus_message *m, int sensor)
{
    struct sensor_claims *claims = &b->claims[sensor];
    int r;
    if (!claims->track) {
        r = sd_bus_track_new(b->bus, &claims->track, on_claims_empty, claims);
        if (r < 0) return r;
    }
    bool first = sd_bus_track_count(claims->track) == 0;
    r = sd_bus_track_add_sender(claims->track, m);
    if (r < 0) {
        if (first) {
            sd_bus_track_unref(claims->track);
            claims->track = NULL;
        }
        return r;
    }
    if (first) b->callbacks.demand_changed(b->callbacks.context, sensor, true);
    if (claims->held_count == MAX_HELD_CLAIMS || b->callbacks.claim_is_current(b->callbacks.context, sensor))
        return sd_bus_reply_method_return(m, NULL);
    claims->held[claims->held_count++] = sd_bus_message_ref(m);
    return 1;
}

static int release(struct orientd_bus *b, sd_bus_message *m, int sensor)
{
    struct sensor_claims *claims = &b->claims[sensor];
    // Releasing what one did not claim changes nothing; an emptied track calls on_claims_empty.
    if (claims->track) {
        int r = sd_bus_track_remove_sender(claims->track, m);
        if (r < 0 && r != -EUNATCH) return r;
    }
    return sd_bus_reply_method_return(m, NULL);
}

static int claim_or_release(struct orientd_bus *b, sd_bus_message *m)
{
    const char *member = sd_bus_message_get_member(m);
    int sensor = sensor_of(member);
    int r = strncmp(member, "Claim", 5) == 0 ? claim(b, m, sensor) : release(b, m, sensor);
    return r < 0 ? sd_bus_reply_method_errno(m, r, NULL) : r;
}

// MARK: polkit

struct authorization {
    struct orientd_bus *bus;
    sd_bus_message *call;
};

static int on_authorized(sd_bus_message *reply, void *userdata, sd_bus_error *ignored)
{
    (void)ignored;
    struct authorization *request = userdata;
    struct orientd_bus *b = request->bus;
    sd_bus_message *call = request->call;
    free(request);
    b->authorizations--;

    int authorized = 0, challenge = 0, r;
    const sd_bus_error *failure = sd_bus_message_get_error(reply);
    if (failure) {
        const char *why = failure->message ? failure->message : failure->name;
        b->callbacks.polkit_failed(b->callbacks.context, why);
        r = sd_bus_reply_method_errorf(call, SD_BUS_ERROR_ACCESS_DENIED, "Not Authorized: %s", why);
    } else if (sd_bus_message_enter_container(reply, 'r', "bba{ss}") < 0
               || sd_bus_message_read(reply, "bb", &authorized, &challenge) < 0 || !authorized) {
        r = sd_bus_reply_method_errorf(call, SD_BUS_ERROR_ACCESS_DENIED, "Not Authorized: Sensor claim not allowed");
    } else {
        r = claim_or_release(b, call);
    }
    sd_bus_message_unref(call);
    return r < 0 ? 0 : 1;
}

static int authorize(struct orientd_bus *b, sd_bus_message *m)
{
    if (b->authorizations >= MAX_AUTHORIZATIONS)
        return sd_bus_reply_method_errorf(m, SD_BUS_ERROR_LIMITS_EXCEEDED, "Too many claims waiting for polkit; try again");
    struct authorization *request = malloc(sizeof *request);
    if (!request) return -ENOMEM;
    request->bus = b;
    request->call = sd_bus_message_ref(m);
    int r = sd_bus_call_method_async(
        b->bus, NULL, "org.freedesktop.PolicyKit1", "/org/freedesktop/PolicyKit1/Authority",
        "org.freedesktop.PolicyKit1.Authority", "CheckAuthorization", on_authorized, request,
        "(sa{sv})sa{ss}us", "system-bus-name", 1, "name", "s", sd_bus_message_get_sender(m),
        POLKIT_ACTION, 0, 0, "");
    if (r < 0) {
        sd_bus_message_unref(request->call);
        free(request);
        b->callbacks.polkit_failed(b->callbacks.context, strerror(-r));
        return sd_bus_reply_method_errorf(m, SD_BUS_ERROR_ACCESS_DENIED, "Not Authorized: cannot ask polkit (%s)", strerror(-r));
    }
    b->authorizations++;
    return 1;
}

static int on_method(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
    (void)error;
    struct orientd_bus *b = userdata;
    // The compass is not authorized by iio-sensor-proxy either (geoclue claims it as a system user).
    if (b->check_polkit && sensor_of(sd_bus_message_get_member(m)) != ORIENTD_BUS_COMPASS) return authorize(b, m);
    return claim_or_release(b, m);
}

// MARK: Signals to claimers

/// One PropertiesChanged to each claimer of `sensor`, with the named properties in that order.
static void emit(struct orientd_bus *b, int sensor, const char *path, const char *interface, const char *const *names)
{
    sd_bus_track *track = b->claims[sensor].track;
    if (!track) return;
    for (const char *claimer = sd_bus_track_first(track); claimer; claimer = sd_bus_track_next(track)) {
        sd_bus_message *s = NULL;
        int r = sd_bus_message_new_signal(b->bus, &s, path, "org.freedesktop.DBus.Properties", "PropertiesChanged");
        if (r >= 0) r = sd_bus_message_set_destination(s, claimer);
        if (r >= 0) r = sd_bus_message_append(s, "s", interface);
        if (r >= 0) r = sd_bus_message_open_container(s, 'a', "{sv}");
        for (const char *const *name = names; r >= 0 && *name; name++) {
            r = sd_bus_message_open_container(s, 'e', "sv");
            if (r >= 0) r = sd_bus_message_append(s, "s", *name);
            if (r >= 0) r = sd_bus_message_open_container(s, 'v', signature_of(*name));
            if (r >= 0) r = append_property(s, b, *name);
            if (r >= 0) r = sd_bus_message_close_container(s);
            if (r >= 0) r = sd_bus_message_close_container(s);
        }
        if (r >= 0) r = sd_bus_message_close_container(s);
        if (r >= 0) r = sd_bus_message_append(s, "as", 0);
        if (r >= 0) sd_bus_send(b->bus, s, NULL);
        sd_bus_message_unref(s);
    }
}

#define EMIT(b, sensor, path, interface, ...) \
    emit(b, sensor, path, interface, (const char *const[]){__VA_ARGS__, NULL})

void orientd_bus_set_accelerometer(orientd_bus *b, bool present, const char *orientation, const char *tilt)
{
    bool presence = b->has_accelerometer != present;
    bool turned = strcmp(b->orientation, orientation) != 0;
    bool tilted = strcmp(b->tilt, tilt) != 0;
    b->has_accelerometer = present;
    copy_text(b->orientation, sizeof b->orientation, orientation);
    copy_text(b->tilt, sizeof b->tilt, tilt);
    if (presence) {
        if (present) EMIT(b, ORIENTD_BUS_ACCELEROMETER, PATH, NAME, "HasAccelerometer", "AccelerometerOrientation", "AccelerometerTilt");
        else EMIT(b, ORIENTD_BUS_ACCELEROMETER, PATH, NAME, "HasAccelerometer");
        return;
    }
    // Apart: iio-sway and iio-hyprland read only a signal's first property.
    if (turned) EMIT(b, ORIENTD_BUS_ACCELEROMETER, PATH, NAME, "AccelerometerOrientation");
    if (tilted) EMIT(b, ORIENTD_BUS_ACCELEROMETER, PATH, NAME, "AccelerometerTilt");
}

void orientd_bus_set_light(orientd_bus *b, bool present, double level, const char *unit)
{
    bool presence = b->has_light != present;
    bool changed = b->light_level != level || strcmp(b->light_unit, unit) != 0;
    b->has_light = present;
    b->light_level = level;
    copy_text(b->light_unit, sizeof b->light_unit, unit);
    if (presence) {
        if (present) EMIT(b, ORIENTD_BUS_LIGHT, PATH, NAME, "HasAmbientLight", "LightLevelUnit", "LightLevel");
        else EMIT(b, ORIENTD_BUS_LIGHT, PATH, NAME, "HasAmbientLight");
    } else if (changed) {
        EMIT(b, ORIENTD_BUS_LIGHT, PATH, NAME, "LightLevelUnit", "LightLevel");
    }
}

void orientd_bus_set_proximity(orientd_bus *b, bool present, bool near)
{
    bool presence = b->has_proximity != present;
    bool changed = b->proximity_near != near;
    b->has_proximity = present;
    b->proximity_near = near;
    if (presence) {
        if (present) EMIT(b, ORIENTD_BUS_PROXIMITY, PATH, NAME, "HasProximity", "ProximityNear");
        else EMIT(b, ORIENTD_BUS_PROXIMITY, PATH, NAME, "HasProximity");
    } else if (changed) {
        EMIT(b, ORIENTD_BUS_PROXIMITY, PATH, NAME, "ProximityNear");
    }
}

void orientd_bus_set_compass(orientd_bus *b, bool present, double heading)
{
    bool presence = b->has_compass != present;
    bool changed = b->heading != heading;
    b->has_compass = present;
    b->heading = heading;
    if (presence) {
        if (present) EMIT(b, ORIENTD_BUS_COMPASS, COMPASS_PATH, COMPASS_INTERFACE, "HasCompass", "CompassHeading");
        else EMIT(b, ORIENTD_BUS_COMPASS, COMPASS_PATH, COMPASS_INTERFACE, "HasCompass");
    } else if (changed) {
        EMIT(b, ORIENTD_BUS_COMPASS, COMPASS_PATH, COMPASS_INTERFACE, "CompassHeading");
    }
}

void orientd_bus_settle(orientd_bus *b, int sensor)
{
    if (sensor < 0 || sensor >= SENSORS) return;
    struct sensor_claims *claims = &b->claims[sensor];
    for (unsigned i = 0; i < claims->held_count; i++) {
        sd_bus_reply_method_return(claims->held[i], NULL);
        sd_bus_message_unref(claims->held[i]);
    }
    claims->held_count = 0;
}

unsigned orientd_bus_claimers(orientd_bus *b, int sensor)
{
    if (sensor < 0 || sensor >= SENSORS || !b->claims[sensor].track) return 0;
    return sd_bus_track_count(b->claims[sensor].track);
}

// MARK: The objects

static const sd_bus_vtable sensor_proxy_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("HasAccelerometer", "b", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("AccelerometerOrientation", "s", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("AccelerometerTilt", "s", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("HasAmbientLight", "b", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("LightLevelUnit", "s", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("LightLevel", "d", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("HasProximity", "b", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("ProximityNear", "b", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    // Without SD_BUS_VTABLE_UNPRIVILEGED sd-bus would demand CAP_SYS_ADMIN of every caller.
    SD_BUS_METHOD("ClaimAccelerometer", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ReleaseAccelerometer", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ClaimLight", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ReleaseLight", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ClaimProximity", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ReleaseProximity", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable compass_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("HasCompass", "b", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("CompassHeading", "d", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_METHOD("ClaimCompass", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ReleaseCompass", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

// MARK: The name

static int on_name_requested(sd_bus_message *reply, void *userdata, sd_bus_error *ignored)
{
    (void)ignored;
    struct orientd_bus *b = userdata;
    const sd_bus_error *failure = sd_bus_message_get_error(reply);
    uint32_t result = 0;
    if (failure) {
        b->callbacks.name_changed(b->callbacks.context, ORIENTD_BUS_NAME_REFUSED, failure->message ? failure->message : failure->name);
    } else if (sd_bus_message_read(reply, "u", &result) >= 0 && result == 2 /* DBUS_REQUEST_NAME_REPLY_IN_QUEUE */) {
        b->callbacks.name_changed(b->callbacks.context, ORIENTD_BUS_NAME_QUEUED, "");
    }
    // Owning it is reported by NameAcquired, which the bus sends in either case.
    return 1;
}

static int on_name_signal(sd_bus_message *m, void *userdata, sd_bus_error *ignored)
{
    (void)ignored;
    struct orientd_bus *b = userdata;
    const char *name = NULL;
    if (sd_bus_message_read(m, "s", &name) < 0 || !name || strcmp(name, NAME) != 0) return 0;
    bool acquired = strcmp(sd_bus_message_get_member(m), "NameAcquired") == 0;
    b->callbacks.name_changed(b->callbacks.context, acquired ? ORIENTD_BUS_NAME_OWNED : ORIENTD_BUS_NAME_LOST, "");
    return 0;
}

orientd_bus *orientd_bus_open(orientd_bus_callbacks callbacks, bool check_polkit, char *error, size_t error_length)
{
    struct orientd_bus *b = calloc(1, sizeof *b);
    if (!b) {
        copy_text(error, error_length, strerror(ENOMEM));
        return NULL;
    }
    b->callbacks = callbacks;
    b->check_polkit = check_polkit;
    copy_text(b->orientation, sizeof b->orientation, "undefined");
    copy_text(b->tilt, sizeof b->tilt, "undefined");
    copy_text(b->light_unit, sizeof b->light_unit, "lux");
    b->heading = -1;
    for (int i = 0; i < SENSORS; i++) {
        b->claims[i].bus = b;
        b->claims[i].sensor = i;
    }

    const char *step = "connect to the system bus";
    int r = sd_bus_open_system(&b->bus);
    if (r >= 0) {
        step = "serve " PATH;
        r = sd_bus_add_object_vtable(b->bus, NULL, PATH, NAME, sensor_proxy_vtable, b);
    }
    if (r >= 0) r = sd_bus_add_object_vtable(b->bus, NULL, COMPASS_PATH, COMPASS_INTERFACE, compass_vtable, b);
    if (r >= 0) {
        step = "follow the bus name";
        r = sd_bus_match_signal(b->bus, NULL, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameAcquired", on_name_signal, b);
    }
    if (r >= 0)
        r = sd_bus_match_signal(b->bus, NULL, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameLost", on_name_signal, b);
    if (r >= 0) {
        step = "ask for " NAME;
        // Never SD_BUS_NAME_ALLOW_REPLACEMENT: another service must not take the name from orientd.
        r = sd_bus_request_name_async(b->bus, NULL, NAME, SD_BUS_NAME_REPLACE_EXISTING | SD_BUS_NAME_QUEUE, on_name_requested, b);
    }
    if (r < 0) {
        snprintf(error, error_length, "cannot %s: %s", step, strerror(-r));
        orientd_bus_close(b);
        return NULL;
    }
    return b;
}

void orientd_bus_close(orientd_bus *b)
{
    if (!b) return;
    for (int i = 0; i < SENSORS; i++) {
        for (unsigned j = 0; j < b->claims[i].held_count; j++) sd_bus_message_unref(b->claims[i].held[j]);
        sd_bus_track_unref(b->claims[i].track);
    }
    sd_bus_flush_close_unref(b->bus);
    free(b);
}

// MARK: The event loop's side

int orientd_bus_fd(orientd_bus *b) { return sd_bus_get_fd(b->bus); }

short orientd_bus_events(orientd_bus *b)
{
    int events = sd_bus_get_events(b->bus);
    return events < 0 ? 0 : (short)events;
}

int orientd_bus_timeout_ms(orientd_bus *b)
{
    uint64_t until = 0;
    if (sd_bus_get_timeout(b->bus, &until) < 0 || until == UINT64_MAX) return -1;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t now_us = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
    if (until <= now_us) return 0;
    uint64_t ms = (until - now_us + 999) / 1000;
    return ms > INT32_MAX ? INT32_MAX : (int)ms;
}

int orientd_bus_process(orientd_bus *b)
{
    for (;;) {
        int r = sd_bus_process(b->bus, NULL);
        if (r < 0) return r;
        if (r == 0) return 0;
    }
}
