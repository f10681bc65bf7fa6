import Foundation
import Testing

@testable import WinbackJobs

@Suite struct RandomNonceTests {
    /// Lower-case version-4 UUIDs (the version nibble 4, the variant bits 10), never repeated.
    @Test func noncesAreDistinctLowerCaseVersionFourUUIDs() throws {
        let nonces = (0..<2000).map { _ in RandomNonce.make() }
        #expect(Set(nonces).count == nonces.count)
        for nonce in nonces {
            let characters = Array(nonce)
            #expect(nonce == nonce.lowercased() && UUID(uuidString: nonce) != nil)
            #expect(characters.count == 36 && characters[14] == "4" && "89ab".contains(characters[19]))
        }
    }
}
