/// The file names one export has handed out, so that no two articles get the same file: the second
/// "Notes" becomes "Notes 2.md", the third "Notes 3.md". Names compare case-insensitively, because
/// exports often land on file systems that do (FAT, exFAT, NTFS, APFS).
struct FileNameSet {
    private var taken: Set<String> = []

    /// A name for `title` with `fileExtension` (no dot) that this set has not handed out before.
    mutating func claim(title: String, fileExtension: String) -> String {
        let stem = FileName.stem(for: title)
        var candidate = stem + "." + fileExtension
        var number = 2
        while !taken.insert(candidate.lowercased()).inserted {
            candidate = stem + " \(number)." + fileExtension
            number += 1
        }
        return candidate
    }
}
