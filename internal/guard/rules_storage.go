package guard

// storageRules are registerStorage's rules, static data: loading the
// batch allocates none of them.
var storageRules = []*Rule{
	{ID: ruleStorageS3Delete, Category: "storage", Group: "storage", Verdict: Deny, Names: []string{"aws"},
		When: whenStorageS3Delete, Reason: "this deletes S3 objects or buckets; there is no undo without versioning, ask the user"},
	{ID: ruleStorageGcsDelete, Category: "storage", Group: "storage", Verdict: Deny, Names: []string{"gsutil"},
		When: whenStorageGcsDelete, Reason: "this deletes Cloud Storage objects or buckets; ask the user"},
	{ID: ruleStorageGcsDelete, Category: "storage", Group: "storage", Verdict: Deny, Names: []string{"gcloud"},
		When: whenStorageGcsDelete2, Reason: "this deletes Cloud Storage objects or buckets; ask the user"},
	{ID: ruleStorageAzureDelete, Category: "storage", Group: "storage", Verdict: Deny, Names: []string{"az"},
		When: whenStorageAzureDelete, Reason: "this deletes Azure storage accounts, containers or blobs; ask the user"},
	{ID: ruleStorageAzcopyDelete, Category: "storage", Group: "storage", Verdict: Deny, Names: []string{"azcopy"},
		When: whenStorageAzcopyDelete, Reason: "this deletes blobs at the destination; ask the user"},
	{ID: ruleStorageMinioDelete, Category: "storage", Group: "storage", Verdict: Deny, Names: []string{"mc"},
		When: whenStorageMinioDelete, Reason: "this deletes MinIO objects, buckets or users; ask the user"},
	{ID: ruleStorageMinioPolicy, Category: "storage", Group: "storage", Verdict: Ask, Names: []string{"mc"},
		Sub: []string{"admin", "policy", "remove|rm|unset|detach"}, Reason: "removing a MinIO policy cuts access; ask the user"},
	{ID: ruleStorageS3cmdDelete, Category: "storage", Group: "storage", Verdict: Deny, Names: []string{"s3cmd"},
		When: whenStorageS3cmdDelete, Reason: "this deletes S3 objects or buckets; ask the user"},
	{ID: ruleStorageRcloneDelete, Category: "storage", Group: "storage", Verdict: Deny, Names: []string{"rclone"},
		Sub: []string{"delete|deletefile|purge|rmdir|rmdirs|dedupe|sync|bisync"}, NoFlag: []string{"-n", "--dry-run", "-i", "--interactive"},
		Reason: "this deletes files on the remote (sync deletes whatever the source lacks); run it with --dry-run and ask the user"},
	{ID: ruleStorageRcloneMove, Category: "storage", Group: "storage", Verdict: Ask, Names: []string{"rclone"},
		Sub: []string{"move|moveto|cleanup"}, NoFlag: []string{"-n", "--dry-run", "-i", "--interactive"},
		Reason: "this removes the source files after copying (or empties the trash); ask the user"},
	{ID: ruleBackupResticDelete, Category: "storage", Group: "storage", Verdict: Deny, Names: []string{"restic"},
		When: whenBackupResticDelete, Reason: "this deletes backup snapshots, keys or live locks; ask the user"},
	{ID: ruleBackupResticCache, Category: "storage", Group: "storage", Verdict: Ask, Names: []string{"restic"},
		Sub: []string{"cache"}, AnyFlag: []string{"--cleanup"}, Reason: "this deletes local backup caches; ask the user"},
	{ID: ruleBackupBorgDelete, Category: "storage", Group: "storage", Verdict: Deny, Names: []string{"borg", "borgbackup"},
		Sub: []string{"delete|prune|recreate|repo-delete|rdelete"}, NoFlag: []string{"-n", "--dry-run"},
		Reason: "this deletes or rewrites backup archives; ask the user"},
	{ID: ruleBackupBorgMaintenance, Category: "storage", Group: "storage", Verdict: Ask, Names: []string{"borg", "borgbackup"},
		Sub: []string{"compact|break-lock"}, Reason: "this frees deleted archive space for good or breaks a repository lock; ask the user"},
	{ID: ruleBackupVeleroDelete, Category: "storage", Group: "storage", Verdict: Deny, Names: []string{"velero"},
		When: whenBackupVeleroDelete, Reason: "this deletes cluster backups, schedules or their storage locations; ask the user"},
	{ID: ruleBackupVeleroRestoreDelete, Category: "storage", Group: "storage", Verdict: Ask, Names: []string{"velero"},
		Sub: []string{"restore", "delete"}, Reason: "this deletes a restore record; ask the user"},
}

// Opt-in group "storage": object stores (S3, GCS, Azure Blob, MinIO,
// s3cmd), sync tools that delete at the destination (rclone, azcopy), and
// backup repositories (restic, borg, Velero). Deleting objects, buckets,
// snapshots or archives is denied: there is usually no undo. Operations
// that only tidy or move data ask.
func registerStorage() {
	register(storageRules...)
	setValueOpts("restic", "-r", "--repo", "-o", "--option", "-p", "--password-file", "--cache-dir", "--tag", "--host", "--path", "--keep-last",
		"--keep-daily", "--keep-weekly", "--keep-monthly", "--keep-yearly", "--keep-hourly", "--keep-tag", "--max-unused")
	setValueOpts("borg", "--keep-last", "--keep-daily", "--keep-weekly", "--keep-monthly", "--keep-yearly", "--keep-hourly", "-a", "--glob-archives", "--exclude", "-e")
	setValueOpts("velero", "-n", "--namespace", "--selector", "-l", "--name", "-o", "--output")
	setValueOpts("azcopy", "--delete-destination", "--include-pattern", "--exclude-pattern", "--log-level")
	setValueOpts("mc", "--config-dir", "-C")
	setValueOpts("gsutil", "-o", "-h", "-u")
}

// whenStorageS3Delete is the condition of rule storage.s3-delete.
func whenStorageS3Delete(c *Cmd) bool {
	svc, op := posLower(c, 0), posLower(c, 1)
	return svc == "s3" && s3Deletes(c, op) || svc == "s3api" && hasPrefixAny(op, "delete-")
}

// whenStorageGcsDelete is the condition of rule storage.gcs-delete.
func whenStorageGcsDelete(c *Cmd) bool {
	switch posLower(c, 0) {
	case "rm", "rb":
		return true
	case "rsync":
		return c.Has("-d")
	}
	return false
}

// whenStorageGcsDelete2 is the condition of rule storage.gcs-delete.
func whenStorageGcsDelete2(c *Cmd) bool {
	if posLower(c, 0) != "storage" {
		return false
	}
	return oneOf(posLower(c, 1), "rm") || oneOf(posLower(c, 2), "delete") ||
		posLower(c, 1) == "rsync" && c.Has("--delete-unmatched-destination-objects")
}

// whenStorageAzureDelete is the condition of rule storage.azure-delete.
func whenStorageAzureDelete(c *Cmd) bool {
	return posLower(c, 0) == "storage" && cliVerb(c, 4, azDeleteVerbs)
}

// whenStorageAzcopyDelete is the condition of rule storage.azcopy-delete.
func whenStorageAzcopyDelete(c *Cmd) bool {
	switch posLower(c, 0) {
	case "remove", "rm":
		return true
	case "sync":
		v, _ := c.Flag("--delete-destination")
		return oneOf(v, "true|prompt")
	}
	return false
}

// whenStorageMinioDelete is the condition of rule storage.minio-delete.
func whenStorageMinioDelete(c *Cmd) bool {
	switch posLower(c, 0) {
	case "rm", "rb":
		return true
	case "mirror":
		return c.Has("--remove")
	case "admin":
		return oneOf(posLower(c, 1), "bucket|user") && oneOf(posLower(c, 2), "delete|remove|rm|disable")
	}
	return false
}

// whenStorageS3cmdDelete is the condition of rule storage.s3cmd-delete.
func whenStorageS3cmdDelete(c *Cmd) bool {
	return oneOf(posLower(c, 0), "del|rm|rb|deleteobject") || posLower(c, 0) == "sync" && c.Has("--delete-removed", "--delete-after")
}

// whenBackupResticDelete is the condition of rule backup.restic-delete.
func whenBackupResticDelete(c *Cmd) bool {
	if c.Has("-n", "--dry-run") {
		return false
	}
	switch posLower(c, 0) {
	case "forget", "prune":
		return true
	case "key":
		return oneOf(posLower(c, 1), "remove|rm")
	case "unlock":
		return c.Has("--remove-all")
	}
	return false
}

// whenBackupVeleroDelete is the condition of rule backup.velero-delete.
func whenBackupVeleroDelete(c *Cmd) bool {
	return posLower(c, 0) == "uninstall" || oneOf(posLower(c, 0), "backup|schedule|snapshot|backup-location|snapshot-location") && posLower(c, 1) == "delete"
}
