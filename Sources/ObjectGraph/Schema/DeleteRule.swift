/// What happens to the objects at the other end of a relationship when an object is deleted.
/// Rules are applied by `save()`, in memory, before anything is written.
public enum DeleteRule: String, Sendable, Hashable {
    /// Remove the deleted object from the inverse relationship of each related object.
    case nullify
    /// Delete the related objects too, and apply their rules in turn.
    case cascade
    /// Refuse the save while the relationship holds any object; the error names them.
    case deny
    /// Leave related objects alone. Their inverse keeps pointing at a deleted object until they
    /// are saved with another value: only for relationships the caller maintains itself.
    case noAction
}
