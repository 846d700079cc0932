/// The IIO triggers a driver registered for its device, found by name among the context's
/// triggers, and what they say about the hardware.
///
/// Drivers name their triggers after the device: "<name>-dev<N>" (bmc150_accel-dev0,
/// accel_3d-dev0, mxc4005-dev0), "<name>-trigger" (lis3dh-trigger), or otherwise starting with the
/// name (kx022-acceldata-rdy-dev0, msa311-13-new-data, bmi270-trig); a motion trigger
/// (bmc150_accel-any-motion-dev0) fires only while the device moves. A name ending in "-dev<N>"
/// carries the number of the device it belongs to (iio:deviceN): it is this device's whatever it
/// starts with, and never a sibling's of the same name (a convertible's two bmc150s). The accelerometer drivers
/// register them only where the chip's interrupt line is wired (bmc150-accel-core.c,
/// kxcjk-1013.c, mxc4005.c, mma8452.c, st_accel_core.c: `if (irq > 0)` around the trigger set-up),
/// while the scan elements, the `trigger/current_trigger` file and the `events/` files are made
/// either way. So with no trigger of its own, a triggered buffer cannot run (the kernel refuses to
/// enable it: EINVAL) and an IIO event never fires: the device is polled. A HID sensor hub's
/// device always has its trigger (hid-sensor-trigger.c).
public struct DeviceTriggers: Equatable, Sendable {
    /// The triggers named after the device, in the context's order.
    public let own: [String]
    /// The one to clock the device's buffer: "<name>-dev<N>", else "<name>-trigger", else the one
    /// own trigger that is not a motion trigger; nil when there is none, or no single one.
    public let dataReady: String?

    /// `deviceName`: the device's `name`; `deviceID`: "iio:device3"; `triggers`: every trigger's name.
    public init(deviceName: String, deviceID: String, triggers: [String]) {
        let number = Self.number(endingIn: deviceID, after: "device")
        own = triggers.filter { trigger in
            if let owner = Self.number(endingIn: trigger, after: "-dev") { return owner == number }
            return !deviceName.isEmpty && trigger.hasPrefix(deviceName) && trigger != deviceName
        }
        if let number, own.contains("\(deviceName)-dev\(number)") {
            dataReady = "\(deviceName)-dev\(number)"
        } else if own.contains("\(deviceName)-trigger") {
            dataReady = "\(deviceName)-trigger"
        } else {
            let dataTriggers = own.filter { !$0.dropFirst(deviceName.count).contains("motion") }
            dataReady = dataTriggers.count == 1 ? dataTriggers[0] : nil
        }
    }

    /// Whether the kernel shows the chip's interrupt line wired: its driver registered a trigger.
    public var showInterruptLine: Bool { !own.isEmpty }

    /// The digits that end `text` right after `marker` ("3" of "iio:device3", "0" of
    /// "accel_3d-dev0"); nil when it does not end so.
    private static func number(endingIn text: String, after marker: String) -> String? {
        let digits = String(text.reversed().prefix { $0.isNumber }.reversed())
        guard !digits.isEmpty, text.dropLast(digits.count).hasSuffix(marker) else { return nil }
        return digits
    }
}
