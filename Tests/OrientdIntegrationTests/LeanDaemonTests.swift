import Foundation
import ProcessHarness
import Testing

extension IntegrationTests {
    /// Foundation (and the ICU tables it loads) was most of the daemon's memory, and most of
    /// orientctl's size (58 MB stripped, a client a phone installs); neither may link it again
    /// through any module or dependency. FoundationEssentials (no ICU) comes with
    /// swift-argument-parser, and is allowed.
    @Suite struct LeanDaemonTests {
        @Test(arguments: ["orientd", "orientctl"])
        func linksNeitherFoundationNorICUFromTheSwiftToolchain(program: String) throws {
            let linked = try run(executable: "/usr/bin/ldd", [Products.path(program)])
            #expect(linked.status == 0, "ldd failed: \(linked.standardError)")
            let libraries = linked.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(libraries.contains { $0.hasPrefix("libswiftCore.so") }, "ldd listed no Swift runtime: is this the debug build?\n\(linked.standardOutput)")
            let foundation = libraries.filter {
                ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libFoundationNetworking.so"]
                    .contains(String($0.prefix { $0 != " " }))
            }
            #expect(foundation.isEmpty, "\(program) links \(foundation)")
        }
    }
}
