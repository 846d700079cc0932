/// The 3×3 matrix that turns a sensor's axes into the device's (kernel ABI `mount_matrix`,
/// systemd hwdb `ACCEL_MOUNT_MATRIX`): out.x = row1·v, out.y = row2·v, out.z = row3·v.
public struct MountMatrix: Equatable, Sendable, CustomStringConvertible {
    public let rows: [Vector3]

    public static let identity = MountMatrix(uncheckedRows: [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)])

    private init(uncheckedRows rows: [Vector3]) { self.rows = rows }

    /// The largest magnitude an entry may have. A mount matrix is a rotation, at most with a
    /// scale: its entries are 0 and ±1, or cosines and sines, perhaps times a calibration factor
    /// near 1. An entry beyond ±1000 is not a mounting but garbage (a corrupt hwdb entry, a driver
    /// bug, a hostile iiod board), and taking it would turn every reading into nonsense.
    public static let largestEntry = 1000.0

    /// Parses "x1, y1, z1; x2, y2, z2; x3, y3, z3" as written in the wild: "-0", missing spaces,
    /// trailing blanks and newlines are all accepted. A matrix with an all-zero row would erase an
    /// axis and is rejected, as is anything that is not three rows of three numbers, a number that
    /// is not finite ("nan", "inf", "1e999"), and an entry beyond ±`largestEntry`.
    public init(parsing text: String) throws(MountMatrixError) {
        let rowTexts = text.trimmingBlanks().split(separator: ";", omittingEmptySubsequences: false)
        guard rowTexts.count == 3 else { throw .wrongShape("expected 3 rows separated by ';', found \(rowTexts.count)") }
        var rows: [Vector3] = []
        for (index, rowText) in rowTexts.enumerated() {
            let cells = rowText.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 3 else {
                throw .wrongShape("row \(index + 1) has \(cells.count) values, expected 3")
            }
            var numbers: [Double] = []
            for cell in cells {
                guard let number = parseDecimal(cell) else { throw .notANumber(printableExcerpt(cell.trimmingBlanks())) }
                guard abs(number) <= Self.largestEntry else { throw .outOfRange(printableExcerpt(cell.trimmingBlanks())) }
                numbers.append(number)
            }
            let row = Vector3(numbers[0], numbers[1], numbers[2])
            guard row != .zero else { throw .zeroRow(index + 1) }
            rows.append(row)
        }
        self.init(uncheckedRows: rows)
    }

    /// A matrix from its three rows, checked as `init(parsing:)` checks text: nil unless there
    /// are three rows, each finite, not all zero and within ±`largestEntry`.
    public init?(rows: [Vector3]) {
        guard rows.count == 3, rows.allSatisfy({ row in
            row != .zero && [row.x, row.y, row.z].allSatisfy { $0.isFinite && abs($0) <= Self.largestEntry }
        }) else { return nil }
        self.init(uncheckedRows: rows)
    }

    public func apply(to vector: Vector3) -> Vector3 {
        Vector3(rows[0].dot(vector), rows[1].dot(vector), rows[2].dot(vector))
    }

    public var description: String {
        rows.map { "\(formatDecimal($0.x)), \(formatDecimal($0.y)), \(formatDecimal($0.z))" }.joined(separator: "; ")
    }

}

public enum MountMatrixError: Error, Equatable, Sendable, CustomStringConvertible {
    case wrongShape(String)
    case notANumber(String)
    case zeroRow(Int)
    /// An entry beyond ±`MountMatrix.largestEntry`.
    case outOfRange(String)

    public var description: String {
        switch self {
        case .wrongShape(let why): return "not a 3×3 matrix: \(why)"
        case .notANumber(let cell): return "'\(cell)' is not a number"
        case .zeroRow(let row): return "row \(row) is all zeros"
        case .outOfRange(let cell):
            return "'\(cell)' is beyond ±\(formatDecimal(MountMatrix.largestEntry)), not the entry of a rotation"
        }
    }
}
