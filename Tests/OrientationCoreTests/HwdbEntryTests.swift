@testable import OrientationCore
import Testing

@Suite struct HwdbEntryTests {
    static let dmi = "dmi:bvnAmericanMegatrendsInc.:bvr5.11:bd05/07/2016:br5.11:svnChuwi:pnHi13:pvrDefaultstring:rvnHampoo:rnCherryTrailCR:cvnDefaultstring:ct3:cvrDefaultstring:"
    static let match = "sensor:modalias:acpi:BOSC0200::" + dmi

    static func entry(_ matrix: String) throws -> HwdbEntry {
        HwdbEntry(match: match, matrix: try MountMatrix(parsing: matrix))
    }

    @Test func writesTheEntryAs60SensorHwdbDoes() throws {
        let entry = try Self.entry("0, 1, 0; 1, 0, 0; 0, 0, 1")
        #expect(entry.text == Self.match + "\n ACCEL_MOUNT_MATRIX=0, 1, 0; 1, 0, 0; 0, 0, 1")
        #expect(HwdbEntry.value(of: try MountMatrix(parsing: "-0, -1, 0; -1, -0, 0; 0, 0, -1")) == "0, -1, 0; -1, 0, 0; 0, 0, -1")
    }

    @Test func proposesUpstreamTheModelNotTheFirmware() {
        #expect(HwdbEntry.upstreamMatch(for: Self.match) == "sensor:modalias:acpi:BOSC0200*:dmi:*:svnChuwi:pnHi13:*")
        #expect(HwdbEntry.upstreamMatch(for: "sensor:accel-display:modalias:platform:cros-ec-accel:dmi:bvnGoogle:svnGoogle:pnHatch:")
            == "sensor:accel-display:modalias:platform:cros-ec-accel*:dmi:*:svnGoogle:pnHatch:*")
        // Without a vendor in the DMI string there is nothing better than the exact match.
        #expect(HwdbEntry.upstreamMatch(for: "sensor:modalias:acpi:BOSC0200::") == "sensor:modalias:acpi:BOSC0200::")
        #expect(HwdbEntry.dmiModalias(in: Self.match) == Self.dmi)
        #expect(HwdbEntry.dmiModalias(in: "sensor:modalias:acpi:BOSC0200::") == nil)
    }

    @Test func putsAnEntryIntoAnEmptyFile() throws {
        #expect(HwdbFile.putting(try Self.entry("0, 1, 0; 1, 0, 0; 0, 0, 1"), into: "") == Self.match + "\n ACCEL_MOUNT_MATRIX=0, 1, 0; 1, 0, 0; 0, 0, 1\n")
    }

    /// The older calibration moves to the end (a later record wins) with its other properties;
    /// every other line stays as it was.
    @Test func replacesTheOlderEntryAndKeepsTheRest() throws {
        let before = """
            # my own entries
            sensor:modalias:acpi:KIOX000A*:dmi:*:svnOther:pnTablet:*
             ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, 1, 0; 0, 0, 1

            \(Self.match)
             ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1
             ACCEL_LOCATION=display

            sensor:modalias:acpi:SMO8500*:dmi:*:svnThird:pnPad:*
             ACCEL_MOUNT_MATRIX=0, 1, 0; 1, 0, 0; 0, 0, 1

            """
        let after = HwdbFile.putting(try Self.entry("0, -1, 0; 1, 0, 0; 0, 0, 1"), into: before)
        #expect(after == """
            # my own entries
            sensor:modalias:acpi:KIOX000A*:dmi:*:svnOther:pnTablet:*
             ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, 1, 0; 0, 0, 1

            sensor:modalias:acpi:SMO8500*:dmi:*:svnThird:pnPad:*
             ACCEL_MOUNT_MATRIX=0, 1, 0; 1, 0, 0; 0, 0, 1

            \(Self.match)
             ACCEL_LOCATION=display
             ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1

            """)
        // Putting it again changes nothing.
        #expect(HwdbFile.putting(try Self.entry("0, -1, 0; 1, 0, 0; 0, 0, 1"), into: after) == after)
    }

    /// A record this match shares with others, and an entry someone disabled by commenting out
    /// its match line, are left as they are: the new record after them wins.
    @Test func leavesSharedAndDisabledRecordsAlone() throws {
        let before = """
            sensor:modalias:acpi:KIOX000A*:dmi:*:svnOther:pnTablet:*
            \(Self.match)
             ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, 1, 0; 0, 0, 1

            #sensor:modalias:acpi:BMA250E*:dmi:*:svnOld:pnPad:*
             ACCEL_MOUNT_MATRIX=0, 1, 0; 1, 0, 0; 0, 0, 1

            """
        let after = HwdbFile.putting(try Self.entry("1, 0, 0; 0, -1, 0; 0, 0, 1"), into: before)
        #expect(after == before + "\n\(Self.match)\n ACCEL_MOUNT_MATRIX=1, 0, 0; 0, -1, 0; 0, 0, 1\n")
    }

    /// udev keeps a `#` in a key, which a hwdb file would take as a comment: the match has `?`.
    @Test func writesAHashInTheKeyAsAWildcard() throws {
        let entry = HwdbEntry(match: "sensor:modalias:acpi:BOSC0200::dmi:svnX:pnTab#2:", matrix: .identity)
        #expect(entry.text == "sensor:modalias:acpi:BOSC0200::dmi:svnX:pnTab?2:\n ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1")
    }
}

extension HwdbEntryTests {
    /// A file edited on Windows ("\r\n"): its older calibration is still found and moved, not
    /// duplicated; a file without a final newline keeps its last entry.
    @Test func readsWindowsLineEndingsAndAMissingFinalNewline() throws {
        let windows = "sensor:modalias:acpi:KIOX000A*:dmi:*:svnOther:pnTablet:*\r\n ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, 1, 0; 0, 0, 1\r\n\r\n"
            + Self.match + "\r\n ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1\r\n"
        let after = HwdbFile.putting(try Self.entry("0, 1, 0; 1, 0, 0; 0, 0, 1"), into: windows)
        #expect(after == "sensor:modalias:acpi:KIOX000A*:dmi:*:svnOther:pnTablet:*\n ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, 1, 0; 0, 0, 1\n\n"
            + Self.match + "\n ACCEL_MOUNT_MATRIX=0, 1, 0; 1, 0, 0; 0, 0, 1\n")
        let unterminated = "sensor:modalias:acpi:KIOX000A*:dmi:*:svnOther:pnTablet:*\n ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, 1, 0; 0, 0, 1"
        #expect(HwdbFile.putting(try Self.entry("0, 1, 0; 1, 0, 0; 0, 0, 1"), into: unterminated)
            == unterminated + "\n\n" + Self.match + "\n ACCEL_MOUNT_MATRIX=0, 1, 0; 1, 0, 0; 0, 0, 1\n")
    }

    @Test func writesABackslashInTheKeyAsAWildcard() {
        #expect(HwdbEntry(match: #"sensor:modalias:of:N\x20T"#, matrix: .identity).match == "sensor:modalias:of:N?x20T")
    }
}
