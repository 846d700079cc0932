import OrientationCore

/// A proximity switch of the input subsystem (`SW_FRONT_PROXIMITY`, from gpio-keys on phones;
/// iio-sensor-proxy 3.6's input-proximity): near while the switch is on. Local only. Read by
/// asking the kernel for the switch's state (EVIOCGSW), every `interval` while needed: a call
/// app blanking the screen waits at most that long.
struct InputProximitySensor: AmbientProximitySource {
    static let interval = 0.25

    let devnode: String
    let sysname: String
    let name: String

    /// SW_FRONT_PROXIMITY's code (linux/input-event-codes.h).
    static let frontProximity = 0x0b

    /// The first input device whose capabilities say it has SW_FRONT_PROXIMITY, as
    /// iio-sensor-proxy finds one (nothing is asked of the device itself); nil when there is none.
    static func discover() -> InputProximitySensor? {
        for devnode in InputDevice.devnodes(withProperty: "ID_INPUT_SWITCH") {
            let sysname = InputDevice.sysname(of: devnode)
            guard InputDevice.has([frontProximity], "sw", sysname: sysname) == true else { continue }
            return InputProximitySensor(devnode: devnode, sysname: sysname, name: InputDevice.name(of: sysname))
        }
        return nil
    }

    var found: AmbientLoop.Found {
        // The switch reads 1 or 0: near above ½, as ProximityDetector decides from a raw value.
        AmbientLoop.Found(device: name.isEmpty ? sysname : "\(sysname) (\(name))", sysname: sysname,
                          interval: Self.interval, nearLevel: 0.5)
    }

    var howRead: String { "reading the switch SW_FRONT_PROXIMITY of \(devnode) every \(formatDecimal(Self.interval)) s while needed" }

    /// 1 near, 0 far, or why there is none.
    func read() -> AmbientLoop.Reading {
        do {
            return .value(try InputDevice.proximity(at: devnode) ? 1 : 0)
        } catch {
            return .failed(reason: "\(error)", gone: error.isGone)
        }
    }
}
