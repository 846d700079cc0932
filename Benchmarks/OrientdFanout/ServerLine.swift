import Foundation

/// The members of a line from orientd that the benchmark looks at: enough to tell the hello, the
/// reply to `subscribe`, an error reply and a change event apart. Every other member, and any
/// member of an unexpected type, is ignored, as protocol v1 asks of clients (later versions add
/// members and events).
struct ServerLine: Decodable {
    var event: String?
    var id: Int?
    var hasResult = false
    /// The `orientation` member of a reply's `result`.
    var resultOrientation: String?
    var errorCode: String?
    var errorMessage: String?
    var orientation: String?
    var timestamp: Double?
    var sequence: Int?

    static let changeEvent = "deviceOrientationDidChange"

    /// The line parsed, or nil if it is not a JSON object.
    init?(_ line: some Sequence<UInt8>) {
        guard let parsed = try? JSONDecoder().decode(ServerLine.self, from: Data(line)) else { return nil }
        self = parsed
    }

    var isChange: Bool { event == Self.changeEvent }

    /// The reply to the request with this `id` if it succeeded.
    func isResult(of requestID: Int) -> Bool { id == requestID && hasResult }

    private enum Member: String, CodingKey { case event, id, result, error, orientation, timestamp, sequence }
    private struct ErrorMembers: Decodable { var code: String?; var message: String? }
    private struct ResultMembers: Decodable { var orientation: String? }

    init(from decoder: Decoder) throws {
        let members = try decoder.container(keyedBy: Member.self)
        event = try? members.decode(String.self, forKey: .event)
        id = try? members.decode(Int.self, forKey: .id)
        hasResult = members.contains(.result)
        resultOrientation = (try? members.decode(ResultMembers.self, forKey: .result))?.orientation
        let error = try? members.decode(ErrorMembers.self, forKey: .error)
        errorCode = error?.code
        errorMessage = error?.message
        orientation = try? members.decode(String.self, forKey: .orientation)
        timestamp = try? members.decode(Double.self, forKey: .timestamp)
        sequence = try? members.decode(Int.self, forKey: .sequence)
    }
}

/// The one request a subscriber sends.
enum SubscribeRequest {
    static let id = 1
    static let line = #"{"id":1,"method":"subscribe"}"# + "\n"
}
