@testable import AccelerometerIO
import Testing

/// The change sensitivity a HID hub is given for a motion, in the unit it reports in (the kernel
/// converts what is written with the field's own exponent): g where its IIO scale is 9.80665 × 10ⁿ,
/// m/s² where it is 1 × 10ⁿ.
@Suite struct HubChangeWatchTests {
    @Test("a motion of 1 m/s² in the hub's unit", arguments: [
        (0.0980665, 1 / 9.80665),    // g, exponent -2 (a usual hub)
        (0.00980665, 1 / 9.80665),   // g, exponent -3
        (9.80665, 1 / 9.80665),      // g, no exponent
        (0.01, 1.0),                 // m/s², exponent -2
        (1.0, 1.0),                  // m/s²
    ])
    func sensitivity(scale: Double, expected: Double) {
        #expect(abs(HubChangeWatch.sensitivity(forMotion: 1, scale: scale) - expected) < 1e-9)
    }

    @Test func anUnusableScaleIsTakenAsG() {
        #expect(abs(HubChangeWatch.sensitivity(forMotion: 2, scale: 0) - 2 / 9.80665) < 1e-9)
        #expect(abs(HubChangeWatch.sensitivity(forMotion: 2, scale: .nan) - 2 / 9.80665) < 1e-9)
    }
}
