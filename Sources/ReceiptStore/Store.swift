// The store stage: see the store issue.
