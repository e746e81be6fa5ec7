// Package outdir writes kafkagrid's outputs to disk: an output folder of many files (a
// reference site, a release of it, a capture report) through a Folder, which keeps the rules
// of the README's "the output folder is yours" (temporary names renamed into place, a
// manifest of what a run wrote, only those files replaced, no symbolic link followed, one
// writer at a time, one kind of output a folder), and a single file (a drawing, a rewritten
// Markdown file) through WriteFile, whole or not at all. Temps lists the temporary files
// open, for a signal handler to remove.
//
// Its errors start "site: ", as they did when the folder was package site's, so that what a
// user reads is unchanged.
//
// It knows nothing of what the files hold: package site lays out what a page shows, and
// writes no file.
package outdir
