package main

import "github.com/urfave/cli/v2"

func simulateCommand() *cli.Command {
	return notYet("simulate", "simulate a cluster with arrivals under a policy", 5)
}
