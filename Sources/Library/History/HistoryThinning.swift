import Foundation

/// Which versions of an article's history to keep, as a backup tool thins its snapshots: every
/// version of the last day, then the last version of each hour for a week, of each day for a
/// month, and of each week before that.
///
///     let kept = HistoryThinning.standard.kept(recorded: versions.map(\.recorded), now: now)
///
/// Periods are counted from 1970 in UTC (an hour, a day, a week of fixed length), so that each
/// day holds whole hours and each week whole days: the version a coarser period keeps is the
/// latest of the finer periods it holds, which were kept before it aged. Thinning again later
/// therefore never needs a version an earlier thinning removed, and every period that had a
/// version keeps one. Pure: the clock is the `now` the caller passes.
public struct HistoryThinning: Sendable, Hashable {
    /// Versions younger than `age` keep one per `period` (every version when `period` is nil).
    public struct Tier: Sendable, Hashable {
        /// The tier holds versions younger than this (seconds).
        public var age: TimeInterval
        /// One version is kept per period of this length (seconds); nil keeps every version.
        public var period: TimeInterval?

        /// A tier of versions younger than `age`, one kept per `period`.
        public init(age: TimeInterval, period: TimeInterval?) {
            self.age = age
            self.period = period
        }
    }

    /// The tiers, youngest first.
    public var tiers: [Tier]
    /// One version is kept per period of this length for versions older than every tier.
    public var periodBeyond: TimeInterval

    static let hour: TimeInterval = 3_600
    static let day: TimeInterval = 86_400
    static let week: TimeInterval = 7 * 86_400

    /// Every version of the last day, hourly for a week, daily for 30 days, weekly before.
    public static let standard = HistoryThinning(
        tiers: [Tier(age: day, period: nil), Tier(age: week, period: hour), Tier(age: 30 * day, period: day)],
        periodBeyond: week)

    /// Thinning with these tiers (youngest first); each period should divide the next, as hours
    /// divide days and days weeks, for thinning to be stable.
    public init(tiers: [Tier], periodBeyond: TimeInterval) {
        self.tiers = tiers
        self.periodBeyond = periodBeyond
    }

    /// The positions in `recorded` of the versions to keep at `now`: every version in a tier
    /// without a period (and any recorded after `now`, from a clock set back), and the latest of
    /// each period otherwise (the earlier position among equal times).
    public func kept(recorded: [Date], now: Date) -> Set<Int> {
        var kept = Set<Int>()
        // Period length and number → the latest version in it so far.
        var latest: [PeriodKey: Int] = [:]
        for (index, date) in recorded.enumerated() {
            let age = now.timeIntervalSince(date)
            guard let period = period(forAge: age) else {
                kept.insert(index)
                continue
            }
            let key = PeriodKey(length: period, number: (date.timeIntervalSince1970 / period).rounded(.down))
            if let other = latest[key], recorded[other] >= date { continue }
            latest[key] = index
        }
        kept.formUnion(latest.values)
        return kept
    }

    /// The period of a version of this age, nil when every version of that age is kept.
    func period(forAge age: TimeInterval) -> TimeInterval? {
        if age < 0 { return nil }
        for tier in tiers where age < tier.age { return tier.period }
        return periodBeyond
    }

    private struct PeriodKey: Hashable {
        let length: TimeInterval
        let number: Double
    }
}

/// How much text the history may hold in all: the larger of a share of the library and a number
/// of bytes (by default 10 % of the library or 200 MB). When the history grows past it, the
/// oldest versions go first; an article's latest version is always kept.
public struct HistorySizeLimit: Sendable, Hashable {
    /// The share of the library's size the history may take (0.10 is 10 %).
    public var fractionOfLibrary: Double
    /// The bytes the history may take whatever the library's size.
    public var bytes: Int64

    /// 10 % of the library or 200 MB, whichever is larger.
    public static let standard = HistorySizeLimit(fractionOfLibrary: 0.10, bytes: 200_000_000)

    /// A limit of the larger of `fractionOfLibrary` of the library and `bytes`.
    public init(fractionOfLibrary: Double, bytes: Int64) {
        self.fractionOfLibrary = fractionOfLibrary
        self.bytes = bytes
    }

    /// Whether every history a store of `storeSize` bytes can hold is within the limit: the
    /// history is part of the store (its texts are stored as they are counted, in the store file
    /// or its write-ahead log), so it is no larger than the store, and the limit is never below
    /// ``bytes``. Answers without reading the history.
    public func holdsAnyHistory(inStoreOf storeSize: Int64) -> Bool {
        storeSize <= max(0, bytes)
    }

    /// The limit for a library of `librarySize` bytes (its articles, the history left out).
    public func bytes(forLibraryOf librarySize: Int64) -> Int64 {
        max(Int64((Double(max(0, librarySize)) * max(0, fractionOfLibrary)).rounded(.down)), max(0, bytes))
    }
}
