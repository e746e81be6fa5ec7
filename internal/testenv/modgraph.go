package testenv

import (
	"fmt"
	"os/exec"
)

// ModuleGraph loads the whole module graph of the module at root (`go list -m all`), which
// puts the go.mod file of every module in it into the module cache, through whatever proxy
// the environment names. A module outside this one that requires it with -mod=mod reads the
// whole graph, and so can then build with GOPROXY=off: from a cold cache, a module that
// this one needs only through a dependency without graph pruning (svgo's go.mod names
// ajstarks/deck/generate) is otherwise missing.
func ModuleGraph(goCmd, root string) error {
	cmd := exec.Command(goCmd, "list", "-m", "all")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go list -m all in %s: %v\n%s", root, err, out)
	}
	return nil
}
