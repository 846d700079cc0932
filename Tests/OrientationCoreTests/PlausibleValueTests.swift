import OrientationCore
import Testing

@Suite struct PlausibleAccelerationTests {
    @Test("readings a working accelerometer can give", arguments: [
        Vector3(0, -9.80665, 0), Vector3.zero, Vector3(0, 0, 99.9 * 9.80665), Vector3(-256, 0, 0), Vector3(-500, 500, 500),
    ])
    func plausible(acceleration: Vector3) {
        #expect(PlausibleAcceleration.problem(with: acceleration) == nil)
    }

    @Test("readings none can", arguments: [
        Vector3(1e308, 0, 0), Vector3(1e308, 1e308, 1e308), Vector3(-1e19, 0, 0), Vector3(0, 100.1 * 9.80665, 0),
        Vector3(600, 600, 600), Vector3(.nan, 0, 0), Vector3(0, .infinity, 0), Vector3(0, 0, -.infinity),
    ])
    func implausible(acceleration: Vector3) {
        #expect(PlausibleAcceleration.problem(with: acceleration) != nil)
        #expect(!PlausibleAcceleration.isPlausible(acceleration))
    }

    @Test func theProblemSaysWhy() {
        #expect(PlausibleAcceleration.problem(with: Vector3(1e308, 0, 0))
            == "(1e+308, 0.0, 0.0) m/s² is beyond 100 g, far more than any tablet's or phone's accelerometer measures")
        #expect(PlausibleAcceleration.problem(with: Vector3(.nan, 0, 0)) == "(nan, 0.0, 0.0) m/s² is not a finite acceleration")
    }
}

@Suite struct PrintableExcerptTests {
    @Test func shortPrintableTextIsKept() {
        #expect(printableExcerpt("0.038307") == "0.038307")
        #expect(printableExcerpt("") == "")
    }

    @Test func controlAndNonASCIICharactersAreEscaped() {
        #expect(printableExcerpt("a\nb\tc\r\\'") == "a\\nb\\tc\\r\\\\\\'")
        #expect(printableExcerpt("\u{1B}[2J\u{202E}µ") == "\\u{1B}[2J\\u{202E}\\u{B5}")
    }

    @Test func longTextIsCutSayingHowLong() {
        #expect(printableExcerpt(String(repeating: "9", count: 5000)) == String(repeating: "9", count: 40) + "... (5000 characters)")
        #expect(printableExcerpt(String(repeating: "x", count: 40)) == String(repeating: "x", count: 40))
        #expect(printableExcerpt("abcdef", limit: 3) == "abc... (6 characters)")
    }
}
