import Foundation
import ReceiptModel

// The time of day: an hh:mm[:ss] on the line, best on the date's line or after "time".

extension ReceiptParser {
    func time(_ lines: [ParseLine], dateLine: Int?) -> Field<TimeOfDay>? {
        var best: (TimeOfDay, Double, ParseLine)?
        for l in lines {
            let times = TimeScanner.scan(l.text)
            guard !times.isEmpty else { continue }
            // Once per line, not once per time on it.
            let labelled = l.words.has(" time ") || l.words.has(" masa ") || l.words.has(" zeit ") || l.words.has(" heure ")
            for (t, _) in times {
                var score = 0.6
                if l.source == dateLine { score += 0.3 }
                if labelled { score += 0.2 }
                if best == nil || score > best!.1 { best = (t, score, l) }
            }
        }
        return best.map { Field($0.0, confidence: $0.1, evidence: $0.2.evidence(rule: "time.hh:mm")) }
    }
}

enum TimeScanner {
    static let time = Pattern(#"(?<![\d.,:])([01]?\d|2[0-3])\s?:\s?([0-5]\d)(?:\s?:\s?([0-5]\d))?(?:\s*([AaPp])\.?\s?[Mm]\.?)?(?![\d]|\.\d)"#)

    static func scan(_ line: String) -> [(TimeOfDay, Int)] {
        // Character offsets counted on from the previous match (matches come in order): one walk of the line.
        var last = line.startIndex, offset = 0
        return time.matches(in: line).compactMap { m in
            guard var h = m.groups[1].flatMap({ Int($0) }), let mi = m.groups[2].flatMap({ Int($0) }) else { return nil }
            if let ap = m.groups[4]?.lowercased() {
                guard (1...12).contains(h) else { return nil }
                if ap == "p", h < 12 { h += 12 }
                if ap == "a", h == 12 { h = 0 }
            }
            guard let t = TimeOfDay(hour: h, minute: mi, second: m.groups[3].flatMap { Int($0) }) else { return nil }
            offset += line.distance(from: last, to: m.range.lowerBound)
            last = m.range.lowerBound
            return (t, offset)
        }
    }
}
