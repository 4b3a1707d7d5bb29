// The accounts service: ledger, internal and external accounts (issue 5; being built).
