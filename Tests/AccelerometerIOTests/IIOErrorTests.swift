@testable import AccelerometerIO
import Glibc
import Testing

/// What the log says when the kernel refuses orientd a sensor's file: orientd.service runs it as
/// user orientd, so a refusal points at the udev rule that grants the files.
@Suite struct IIOErrorTests {
    @Test func aRefusedWriteNamesTheRuleThatGrantsIt() {
        for code in [EACCES, EPERM] {
            let text = IIOError(code: code, operation: "write '25' to sampling_frequency of iio:device0").description
            #expect(text.hasPrefix("cannot write '25' to sampling_frequency of iio:device0: "))
            #expect(text.contains("61-orientd.rules") && text.contains("udevadm trigger --subsystem-match=iio --action=change"), "\(text)")
        }
        let other = IIOError(code: EIO, operation: "write '25' to sampling_frequency of iio:device0").description
        #expect(!other.contains("61-orientd.rules"), "\(other)")
        // A hint of the caller's own stays.
        #expect(IIOError(code: EACCES, operation: "read x", hint: "own hint").description.hasSuffix("; own hint"))
    }
}
