@testable import AccelerometerIO
import Glibc
import Testing

/// What the log says when the kernel refuses orientd a sensor's file: orientd.service runs it as
/// user orientd, so a refusal points at the udev rule that grants the files.
@Suite struct IIOErrorTests {
    @Test func theAccessHintNamesTheRuleAndTheCommand() {
        let text = IIOError(code: EACCES, operation: "write '25' to sampling_frequency of iio:device0", hint: IIOError.accessHint).description
        #expect(text.hasPrefix("cannot write '25' to sampling_frequency of iio:device0: "))
        #expect(text.contains("61-orientd.rules") && text.contains("udevadm trigger --subsystem-match=iio --action=change"), "\(text)")
        #expect(text.contains("started by hand, run orientd as root or as that user"), "\(text)")
    }
}
