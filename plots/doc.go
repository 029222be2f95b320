// Package plots draws sgdplan's results as PNG figures with gonum.org/v1/plot.
package plots
