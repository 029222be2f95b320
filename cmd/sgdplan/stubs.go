package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// notYet is the placeholder of a command whose capability has not landed. It
// says so and exits non-zero; it never pretends to work.
func notYet(name, usage string, issue int) *cli.Command {
	return &cli.Command{
		Name:            name,
		Usage:           usage + " (not implemented yet)",
		SkipFlagParsing: true,
		Action: func(*cli.Context) error {
			return withCode(exitFailure, fmt.Errorf("%s is not implemented yet (issue %d)", name, issue))
		},
	}
}
