import Crypto
import Foundation
import WinbackAppStore
import WinbackSampleData

/// `winback bench --es256 N`: the ceiling of verification — N ES256 verifications of a 6.6 KB signing
/// input (SHA-256 + ECDSA), the size of a real App Store JWS, on one core.
public enum ES256Benchmark {
    /// Times `count` ES256 verifications on one core; returns a JSON line.
    public static func run(count: Int) throws -> String {
        let key = P256.Signing.PrivateKey()
        let input = [UInt8](repeating: UInt8(ascii: "a"), count: 6600)
        let signature = try key.signature(for: input)
        let start = DispatchTime.now().uptimeNanoseconds
        var valid = 0
        for _ in 0..<count where key.publicKey.isValidSignature(signature, for: input) { valid += 1 }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return JSONText.render(
            JSONText.object([
                ("benchmark", .string("es256-verify")), ("verifications", .integer(Int64(valid))),
                ("seconds", .double((seconds * 100).rounded() / 100)), ("verificationsPerSecond", .integer(Int64(Double(valid) / seconds))),
            ]))
    }
}
