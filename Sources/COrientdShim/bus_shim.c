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
/// held claims (a sensor's). Past MAX_CLAIMERS clients claiming at once, or past the polkit checks
/// in flight (in all, and of one client), a claim is refused with LimitsExceeded: no local user can
/// make orientd hold more, nor make the bus refuse orientd's own calls to polkit.
#define MAX_HELD_CLAIMS 256
#define MAX_CLAIMERS 512
#define MAX_AUTHORIZATIONS 64
#define MAX_AUTHORIZATIONS_PER_CLIENT 2

/// A client that claims one sensor or more: its unique bus name and a bit per sensor.
struct claimer {
    char *name;
    unsigned sensors;
};

/// A Claim or Release waiting for polkit's answer.
struct authorization {
    struct orientd_bus *bus;
    sd_bus_message *call;
    /// The client left the bus meanwhile: its answer is dropped, nothing is claimed for it.
    bool vanished;
    struct authorization *next, *previous;
};

struct orientd_bus {
    sd_bus *bus;
    orientd_bus_callbacks callbacks;
    bool check_polkit;
    struct authorization *authorizations;
    unsigned authorization_count;

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

    /// Who claims what. Kept here rather than in an sd_bus_track per sensor: a track adds a
    /// match rule on the bus per client and sensor, and the bus's limit on match rules (512 a
    /// connection) would let a few hundred claims from any user make the bus drop orientd. One
    /// match, on every client leaving the bus, serves them all.
    struct claimer claimers[MAX_CLAIMERS];
    unsigned claimer_count;
    unsigned claims[SENSORS];
    sd_bus_message *held[SENSORS][MAX_HELD_CLAIMS];
    unsigned held_count[SENSORS];
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

static int find_claimer(const struct orientd_bus *b, const char *name)
{
    for (unsigned i = 0; name && i < b->claimer_count; i++)
        if (!strcmp(b->claimers[i].name, name)) return (int)i;
    return -1;
}

static bool holds_claim(const struct orientd_bus *b, const char *name, int sensor)
{
    int i = find_claimer(b, name);
    return i >= 0 && (b->claimers[i].sensors & (1u << sensor));
}

/// Takes claimer i's claim of `sensor`; the last claim of a sensor lets it go (and answers the
/// claims still held for it: a client that released before its answer still gets one).
static void drop_claim(struct orientd_bus *b, unsigned i, int sensor)
{
    struct claimer *claimer = &b->claimers[i];
    if (!(claimer->sensors & (1u << sensor))) return;
    claimer->sensors &= ~(1u << sensor);
    if (--b->claims[sensor] == 0) {
        orientd_bus_settle(b, sensor);
        b->callbacks.demand_changed(b->callbacks.context, sensor, false);
    }
    if (claimer->sensors == 0) {
        free(claimer->name);
        b->claimers[i] = b->claimers[--b->claimer_count];
    }
}

static int claim(struct orientd_bus *b, sd_bus_message *m, int sensor)
{
    const char *sender = sd_bus_message_get_sender(m);
    if (!sender) return -EINVAL;
    int i = find_claimer(b, sender);
    if (i < 0) {
        if (b->claimer_count == MAX_CLAIMERS)
            return sd_bus_reply_method_errorf(m, SD_BUS_ERROR_LIMITS_EXCEEDED, "Too many clients claim sensors; try again later");
        char *name = strdup(sender);
        if (!name) return -ENOMEM;
        i = (int)b->claimer_count++;
        b->claimers[i] = (struct claimer){ .name = name, .sensors = 0 };
    }
    // A second claim by the same client changes nothing.
    if (!(b->claimers[i].sensors & (1u << sensor))) {
        b->claimers[i].sensors |= 1u << sensor;
        if (b->claims[sensor]++ == 0) b->callbacks.demand_changed(b->callbacks.context, sensor, true);
    }
    if (b->held_count[sensor] == MAX_HELD_CLAIMS || b->callbacks.claim_is_current(b->callbacks.context, sensor))
        return sd_bus_reply_method_return(m, NULL);
    b->held[sensor][b->held_count[sensor]++] = sd_bus_message_ref(m);
    return 1;
}

static int release(struct orientd_bus *b, sd_bus_message *m, int sensor)
{
    // Releasing what one did not claim changes nothing.
    int i = find_claimer(b, sd_bus_message_get_sender(m));
    if (i >= 0) drop_claim(b, (unsigned)i, sensor);
    return sd_bus_reply_method_return(m, NULL);
}

static int claim_or_release(struct orientd_bus *b, sd_bus_message *m)
{
    const char *member = sd_bus_message_get_member(m);
    int sensor = sensor_of(member);
    int r = strncmp(member, "Claim", 5) == 0 ? claim(b, m, sensor) : release(b, m, sensor);
    return r < 0 ? sd_bus_reply_method_errno(m, r, NULL) : r;
}

/// A client left the bus (NameOwnerChanged with no new owner): its claims go, and the polkit
/// answers it waits for are dropped.
static int on_owner_changed(sd_bus_message *m, void *userdata, sd_bus_error *ignored)
{
    (void)ignored;
    struct orientd_bus *b = userdata;
    const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
    if (sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) < 0 || !name || name[0] != ':' || (new_owner && *new_owner))
        return 0;
    int i = find_claimer(b, name);
    for (int sensor = 0; i >= 0 && sensor < SENSORS; sensor++) {
        bool last = b->claimers[i].sensors == (1u << sensor);
        drop_claim(b, (unsigned)i, sensor);
        if (last) break;  // the entry is gone
    }
    for (struct authorization *request = b->authorizations; request; request = request->next)
        if (!strcmp(sd_bus_message_get_sender(request->call), name)) request->vanished = true;
    return 0;
}

// MARK: polkit

static bool means_polkit_is_down(const sd_bus_error *failure)
{
    return sd_bus_error_has_names(failure, SD_BUS_ERROR_SERVICE_UNKNOWN, SD_BUS_ERROR_NAME_HAS_NO_OWNER,
                                  SD_BUS_ERROR_NO_REPLY, SD_BUS_ERROR_TIMEOUT, SD_BUS_ERROR_DISCONNECTED);
}

static int on_authorized(sd_bus_message *reply, void *userdata, sd_bus_error *ignored)
{
    (void)ignored;
    struct authorization *request = userdata;
    struct orientd_bus *b = request->bus;
    sd_bus_message *call = request->call;
    bool vanished = request->vanished;
    if (request->previous) request->previous->next = request->next;
    else b->authorizations = request->next;
    if (request->next) request->next->previous = request->previous;
    free(request);
    b->authorization_count--;

    int authorized = 0, challenge = 0, r = 0;
    const sd_bus_error *failure = sd_bus_message_get_error(reply);
    if (vanished) {
        // Nobody to answer, nothing to claim.
    } else if (failure) {
        const char *why = failure->message ? failure->message : failure->name;
        if (means_polkit_is_down(failure)) b->callbacks.polkit_answers(b->callbacks.context, false, why);
        r = sd_bus_reply_method_errorf(call, SD_BUS_ERROR_ACCESS_DENIED, "Not Authorized: %s", why);
    } else {
        b->callbacks.polkit_answers(b->callbacks.context, true, "");
        if (sd_bus_message_enter_container(reply, 'r', "bba{ss}") < 0
            || sd_bus_message_read(reply, "bb", &authorized, &challenge) < 0 || !authorized)
            r = sd_bus_reply_method_errorf(call, SD_BUS_ERROR_ACCESS_DENIED, "Not Authorized: Sensor claim not allowed");
        else
            r = claim_or_release(b, call);
    }
    sd_bus_message_unref(call);
    return r < 0 ? 0 : 1;
}

static unsigned authorizations_of(const struct orientd_bus *b, const char *sender)
{
    unsigned count = 0;
    for (const struct authorization *request = b->authorizations; request; request = request->next)
        if (!strcmp(sd_bus_message_get_sender(request->call), sender)) count++;
    return count;
}

static int authorize(struct orientd_bus *b, sd_bus_message *m)
{
    const char *sender = sd_bus_message_get_sender(m);
    if (!sender) return sd_bus_reply_method_errno(m, EINVAL, NULL);
    if (b->authorization_count >= MAX_AUTHORIZATIONS || authorizations_of(b, sender) >= MAX_AUTHORIZATIONS_PER_CLIENT)
        return sd_bus_reply_method_errorf(m, SD_BUS_ERROR_LIMITS_EXCEEDED, "Too many claims waiting for polkit; try again");
    struct authorization *request = calloc(1, sizeof *request);
    if (!request) return sd_bus_reply_method_errno(m, ENOMEM, NULL);
    request->bus = b;
    request->call = sd_bus_message_ref(m);
    int r = sd_bus_call_method_async(
        b->bus, NULL, "org.freedesktop.PolicyKit1", "/org/freedesktop/PolicyKit1/Authority",
        "org.freedesktop.PolicyKit1.Authority", "CheckAuthorization", on_authorized, request,
        "(sa{sv})sa{ss}us", "system-bus-name", 1, "name", "s", sender, POLKIT_ACTION, 0, 0, "");
    if (r < 0) {
        sd_bus_message_unref(request->call);
        free(request);
        b->callbacks.polkit_answers(b->callbacks.context, false, strerror(-r));
        return sd_bus_reply_method_errorf(m, SD_BUS_ERROR_ACCESS_DENIED, "Not Authorized: cannot ask polkit (%s)", strerror(-r));
    }
    request->next = b->authorizations;
    if (b->authorizations) b->authorizations->previous = request;
    b->authorizations = request;
    b->authorization_count++;
    return 1;
}

static int on_method(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
    (void)error;
    struct orientd_bus *b = userdata;
    const char *member = sd_bus_message_get_member(m);
    int sensor = sensor_of(member);
    bool claiming = strncmp(member, "Claim", 5) == 0;
    // The compass is not authorized by iio-sensor-proxy either (geoclue claims it as a system
    // user); nor is a call that changes nothing (a claim of what one holds, a release of what
    // one does not), so repeating them costs polkit nothing.
    if (!b->check_polkit || sensor == ORIENTD_BUS_COMPASS || claiming == holds_claim(b, sd_bus_message_get_sender(m), sensor))
        return claim_or_release(b, m);
    return authorize(b, m);
}

// MARK: Signals to claimers

/// One PropertiesChanged to each claimer of `sensor`, with the named properties in that order.
static void emit(struct orientd_bus *b, int sensor, const char *path, const char *interface, const char *const *names)
{
    for (unsigned i = 0; i < b->claimer_count; i++) {
        if (!(b->claimers[i].sensors & (1u << sensor))) continue;
        const char *claimer = b->claimers[i].name;
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
    for (unsigned i = 0; i < b->held_count[sensor]; i++) {
        sd_bus_reply_method_return(b->held[sensor][i], NULL);
        sd_bus_message_unref(b->held[sensor][i]);
    }
    b->held_count[sensor] = 0;
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
        // Installed before any claim can arrive (this call waits for the bus's answer).
        step = "follow clients leaving the bus";
        r = sd_bus_add_match(b->bus, NULL,
                             "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                             "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg2=''",
                             on_owner_changed, b);
    }
    if (r < 0) {
        snprintf(error, error_length, "cannot %s: %s", step, strerror(-r));
        orientd_bus_close(b);
        return NULL;
    }
    return b;
}

int orientd_bus_request_name(orientd_bus *b)
{
    // Never SD_BUS_NAME_ALLOW_REPLACEMENT: another service must not take the name from orientd.
    return sd_bus_request_name_async(b->bus, NULL, NAME, SD_BUS_NAME_REPLACE_EXISTING | SD_BUS_NAME_QUEUE, on_name_requested, b);
}

void orientd_bus_close(orientd_bus *b)
{
    if (!b) return;
    for (int sensor = 0; sensor < SENSORS; sensor++)
        for (unsigned i = 0; i < b->held_count[sensor]; i++) sd_bus_message_unref(b->held[sensor][i]);
    for (unsigned i = 0; i < b->claimer_count; i++) free(b->claimers[i].name);
    // polkit checks still in flight are dropped with the connection (their requests with them).
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
    // A bounded batch: under a flood of messages udev's events and the sensors' news still get
    // their turn (with messages left, sd-bus's timeout is 0 and the loop comes straight back).
    for (int i = 0; i < 64; i++) {
        int r = sd_bus_process(b->bus, NULL);
        if (r <= 0) return r;
    }
    return 0;
}
