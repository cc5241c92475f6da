import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The signatures are checked against the `openssl` command line, computed independently.
@Suite struct WebhookSigningTests {
    /// Base64 of HMAC-SHA256(key, message) from `openssl dgst`.
    static func openssl(key: String, message: String) throws -> String {
        let hexKey = Array(key.utf8).map { String(format: "%02x", $0) }.joined()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["dgst", "-sha256", "-mac", "HMAC", "-macopt", "hexkey:\(hexKey)", "-binary"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(message.utf8))
        try input.fileHandleForWriting.close()
        let digest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0 && digest.count == 32, "openssl dgst failed")
        return digest.base64EncodedString()
    }

    static let cases: [(secret: String, milliseconds: Int64)] = [
        ("SEC000test", 1_795_957_500_000),
        ("SECa1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4", 1_700_000_000_123),
        ("秘密 with spaces\tand tab", 1),
    ]

    @Test(arguments: cases)
    func dingTalkSignsTimestampNewlineSecretWithTheSecret(secret: String, milliseconds: Int64) throws {
        let expected = try Self.openssl(key: secret, message: "\(milliseconds)\n\(secret)")
        #expect(WebhookSigning.dingTalk(secret: secret, timestampMilliseconds: milliseconds) == expected)
    }

    @Test(arguments: cases)
    func feishuSignsAnEmptyMessageWithTimestampNewlineSecret(secret: String, milliseconds: Int64) throws {
        let seconds = milliseconds / 1000
        let expected = try Self.openssl(key: "\(seconds)\n\(secret)", message: "")
        #expect(WebhookSigning.feishu(secret: secret, timestampSeconds: seconds) == expected)
    }

    @Test func knownValues() {
        // Fixed values, so a change of algorithm cannot hide behind a change of both sides.
        #expect(
            WebhookSigning.dingTalk(secret: "s3cr3tvalue", timestampMilliseconds: 1_795_981_532_320)
                == "AFlYaoGj4S/nskOmRI+LCYgF45Vb/JFLSCG8gGHAoGA=")
        #expect(
            SHA256.hex(SHA256.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func percentEncodingKeepsOnlyUnreservedCharacters() {
        #expect(WebhookSigning.percentEncoded("AFlY/n+L=") == "AFlY%2Fn%2BL%3D")
        #expect(WebhookSigning.percentEncoded("a-b_c.d~e f") == "a-b_c.d~e%20f")
    }
}
