extension ManagedObject {
    /// Cuts the object loose from its context: no context, and no loaded relationships, whose
    /// states reference related objects strongly and would keep cycles of them alive.
    final func detach() {
        context = nil
        relations = nil
    }
}
