from torch._functorch._activation_checkpointing import knapsack
from torch.testing._internal.common_utils import TestCase, run_tests

from knapsack_audit.testing import assert_no_regression, assert_solver_correct


class TestKnapsackAudit(TestCase):
    def test_dp_knapsack(self):
        assert_solver_correct(knapsack.dp_knapsack)

    def test_dp_knapsack_sliding_hirschberg(self):
        assert_solver_correct(knapsack.dp_knapsack_sliding_hirschberg)

    def test_sliding_hirschberg_no_regression_from_dp(self):
        assert_no_regression(knapsack.dp_knapsack, knapsack.dp_knapsack_sliding_hirschberg)


if __name__ == "__main__":
    run_tests()
