// The reconcile stage: see the store issue.
