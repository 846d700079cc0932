/// The 3×3 matrix that turns a sensor's axes into the device's (kernel ABI `mount_matrix`,
/// systemd hwdb `ACCEL_MOUNT_MATRIX`): out.x = row1·v, out.y = row2·v, out.z = row3·v.
public struct MountMatrix: Equatable, Sendable, CustomStringConvertible {
    public let rows: [Vector3]

    public static let identity = MountMatrix(uncheckedRows: [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)])

    private init(uncheckedRows rows: [Vector3]) { self.rows = rows }

    /// Parses "x1, y1, z1; x2, y2, z2; x3, y3, z3" as written in the wild: "-0", missing spaces,
    /// trailing blanks and newlines are all accepted. A matrix with an all-zero row would erase an
    /// axis and is rejected, as is anything that is not three rows of three numbers.
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
                guard let number = parseDecimal(cell) else { throw .notANumber(String(cell.trimmingBlanks())) }
                numbers.append(number)
            }
            let row = Vector3(numbers[0], numbers[1], numbers[2])
            guard row != .zero else { throw .zeroRow(index + 1) }
            rows.append(row)
        }
        self.init(uncheckedRows: rows)
    }

    public func apply(to vector: Vector3) -> Vector3 {
        Vector3(rows[0].dot(vector), rows[1].dot(vector), rows[2].dot(vector))
    }

    public var description: String {
        rows.map { "\(formatCell($0.x)), \(formatCell($0.y)), \(formatCell($0.z))" }.joined(separator: "; ")
    }

    private func formatCell(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

public enum MountMatrixError: Error, Equatable, Sendable, CustomStringConvertible {
    case wrongShape(String)
    case notANumber(String)
    case zeroRow(Int)

    public var description: String {
        switch self {
        case .wrongShape(let why): return "not a 3×3 matrix: \(why)"
        case .notANumber(let cell): return "'\(cell)' is not a number"
        case .zeroRow(let row): return "row \(row) is all zeros"
        }
    }
}
