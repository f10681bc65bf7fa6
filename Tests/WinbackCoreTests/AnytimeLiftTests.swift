import Foundation
import Testing

@testable import WinbackAnalytics
@testable import WinbackAppStore
@testable import WinbackCore
@testable import WinbackReportPage

/// docs/campaigns.md: the confidence sequence and the split check against values worked by hand (Python's math
/// module on the documented formulas), the paper's tuning, the page's verdicts, and a seeded simulation of
/// campaigns with no effect looked at every night.
@Suite struct AnytimeLiftTests {
    static func rounded(_ value: Double) -> String { RateFormat.format(value) }

    /// ρ² of eq. 161 with α = 0.05: (−2 ln 0.05 + ln(1 − 2 ln 0.05)) / m = (5.991465 + 1.944690) / m.
    @Test func theTuningIsThePapers() {
        #expect(abs(ConfidenceSequence.rhoSquared(plannedAccounts: 1) - 7.936155) < 0.000001)
        #expect(abs(ConfidenceSequence.rhoSquared(plannedAccounts: 1000) - 0.007936155) < 1e-9)
    }

    @Test(arguments: [
        // (x_T, n_T, x_H, n_H, planned) → (cs_low, cs_high, p_always_valid), computed by hand from docs/campaigns.md.
        (56, 70, 48, 80, 1000, "-0.056707", "0.456707", "0.189320"),
        (29, 58, 2, 24, 1000, "0.065367", "0.767966", "0.013350"),
        (29, 58, 2, 24, 50, "0.152758", "0.680576", "0.000080"),
        (0, 10, 5, 10, 1000, "-1.000000", "0.558476", "0.542674"),
    ])
    func theSequenceMatchesValuesWorkedByHand(
        _ xT: Int, _ nT: Int, _ xH: Int, _ nH: Int, _ planned: Int, _ low: String, _ high: String, _ p: String
    ) throws {
        let sequence = try #require(
            ConfidenceSequence(treatmentConverted: xT, of: nT, holdoutConverted: xH, of: nH, plannedAccounts: planned))
        #expect([Self.rounded(sequence.low), Self.rounded(sequence.high), Self.rounded(sequence.pValue)] == [low, high, p])
    }

    @Test func noVarianceOrAnEmptyVariantHasNoSequence() {
        #expect(ConfidenceSequence(treatmentConverted: 0, of: 10, holdoutConverted: 0, of: 10, plannedAccounts: 1000) == nil)
        #expect(ConfidenceSequence(treatmentConverted: 10, of: 10, holdoutConverted: 5, of: 5, plannedAccounts: 1000) == nil)
        #expect(ConfidenceSequence(treatmentConverted: 1, of: 10, holdoutConverted: 0, of: 0, plannedAccounts: 1000) == nil)
    }

    @Test(arguments: [
        (700, 300, 30.0, "1.000000"), (760, 240, 30.0, "0.000035"), (58, 24, 30.0, "0.885036"), (1, 0, 30.0, "0.512691"),
    ])
    func theSplitCheckMatchesValuesWorkedByHand(_ treatment: Int, _ holdout: Int, _ percent: Double, _ expected: String) throws {
        let p = try #require(SampleRatioCheck.pValue(treatment: treatment, holdout: holdout, holdoutPercent: percent))
        #expect(Self.rounded(p) == expected)
    }

    @Test func noSplitCheckWithoutAHoldoutShareOrAccounts() {
        #expect(SampleRatioCheck.pValue(treatment: 10, holdout: 0, holdoutPercent: 0) == nil)
        #expect(SampleRatioCheck.pValue(treatment: 0, holdout: 10, holdoutPercent: 100) == nil)
        #expect(SampleRatioCheck.pValue(treatment: 0, holdout: 0, holdoutPercent: 30) == nil)
    }

    @Test(arguments: [
        (0.01, 0.2, "a measurable lift"), (-0.3, -0.02, "a measurable harm"), (-0.1, 0.2, "no measurable effect yet"),
        (0.0, 0.2, "no measurable effect yet"),
    ])
    func thePageVerdictReadsTheSequence(_ low: Double, _ high: Double, _ words: String) {
        #expect(ReportPage.verdict(low: low, high: high) == words)
    }

    @Test func noSequenceMeansNoMeasurableEffectYet() {
        #expect(ReportPage.verdict(low: nil, high: nil) == "no measurable effect yet")
    }

    /// 600 campaigns with no effect (both variants convert at 30 %), 20 new accounts a night (30 % held out),
    /// read every night for 90 nights: the share whose interval ever excludes zero. The fixed interval's is
    /// far above 5 %; the sequence's stays under it.
    @Test func readNightlyTheSequenceRarelyClaimsAnEffectThatIsNotThere() {
        var state: UInt64 = 0x5EED_1717
        func uniform() -> Double {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return Double((state &* 0x2545_F491_4F6C_DD1D) >> 11) / Double(1 << 53)
        }
        let campaigns = 600
        var (fixedEver, sequenceEver) = (0, 0)
        for _ in 0..<campaigns {
            var (xT, nT, xH, nH) = (0, 0, 0, 0)
            var (fixedExcluded, sequenceExcluded) = (false, false)
            for _ in 0..<90 {
                for _ in 0..<20 {
                    let converted = uniform() < 0.3 ? 1 : 0
                    if uniform() < 0.3 {
                        nH += 1
                        xH += converted
                    } else {
                        nT += 1
                        xT += converted
                    }
                }
                if let fixed = ProportionInterval.newcombe(xT, of: nT, xH, of: nH), fixed.low > 0 || fixed.high < 0 { fixedExcluded = true }
                if let sequence = ConfidenceSequence(treatmentConverted: xT, of: nT, holdoutConverted: xH, of: nH, plannedAccounts: 1000),
                    sequence.low > 0 || sequence.high < 0
                {
                    sequenceExcluded = true
                }
            }
            if fixedExcluded { fixedEver += 1 }
            if sequenceExcluded { sequenceEver += 1 }
        }
        let fixedShare = Double(fixedEver) / Double(campaigns)
        let sequenceShare = Double(sequenceEver) / Double(campaigns)
        #expect(sequenceShare < 0.05, "sequence: \(sequenceShare)")
        #expect(fixedShare > 0.2, "fixed: \(fixedShare)")
    }
}

/// `plannedAccounts` is validated like the other campaign keys (64 naming it).
@Suite struct PlannedAccountsTests {
    static func campaigns(_ planned: String) throws(ConfigError) -> [Campaign] {
        let text = #"{"id": "c", "audience": "billing_issue", "holdoutPercent": 10"# + planned + "}"
        var warnings: [String] = []
        return try CampaignParser.parse([(try? JSONParser.parse(text)) ?? .null], warnings: &warnings)
    }

    @Test func theDefaultIsAThousandAndAValueIsKept() throws {
        #expect(try Self.campaigns("").first?.plannedAccounts == 1000)
        #expect(try Self.campaigns(#", "plannedAccounts": 250"#).first?.plannedAccounts == 250)
    }

    @Test(arguments: [
        #", "plannedAccounts": 0"#, #", "plannedAccounts": -5"#, #", "plannedAccounts": 2.5"#, #", "plannedAccounts": "many""#,
    ])
    func aBadValueNamesTheKey(_ planned: String) {
        #expect {
            _ = try Self.campaigns(planned)
        } throws: { error in
            (error as? ConfigError)?.key.hasSuffix("plannedAccounts") == true
        }
    }
}
