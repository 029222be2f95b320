package main

import "github.com/urfave/cli/v2"

func planCommand() *cli.Command {
	return notYet("plan", "allocate workers to jobs offline", 5)
}
