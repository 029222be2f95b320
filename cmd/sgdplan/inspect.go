package main

import "github.com/urfave/cli/v2"

func inspectCommand() *cli.Command {
	return notYet("inspect", "per-run summary of traces", 2)
}
