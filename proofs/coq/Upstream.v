(** * Upstream's recursion (torch 2.10-2.14 [dp_knapsack_sliding_hirschberg]) and its off-by-one

    A faithful model of the loop in
    [torch/_functorch/_activation_checkpointing/knapsack.py], with exact
    integer values in place of float32 (proofs/06, "Upstream's off-by-one").
    A segment [(items, C)] with [C] in units: no items, nothing; one item,
    saved when it fits and its value is positive; otherwise upstream's "right"
    half is the first [length / 2] items and its "left" half the rest. With
    the buffer length [cap = C + 1], the left profile [L] and the flipped right
    profile give sums [L[c] + R[C - c]], [c* = argmax] (first maximum); the left
    half gets [min(c*, Q)] units and the right half [min(cap - c*, Q)]: one unit
    more than the [C - c*] of the split lemma. The order in which the stack
    pops segments does not change the saved set, so the model recurses. *)

From Coq Require Import List Arith ZArith Lia.
From Knapsack Require Import Spec Split Table.
Import ListNotations.

(** Upstream's profile on a buffer of length [cap]: a weight-0 item adds its
    value to every cell, an item with [w >= cap] is skipped, any other is the
    step of [next_row]. *)
Definition up_profile (items : list item) (cap : nat) : list Z :=
  fold_left (fun dp x => if fst x =? 0 then map (fun y => (y + snd x)%Z) dp
                         else if cap <=? fst x then dp
                         else next_row dp (fst x) (snd x))
            items (repeat 0%Z cap).

Fixpoint upstream (Q fuel : nat) (items : list item) (C : nat) : list bool :=
  match fuel with
  | 0 => repeat false (length items)
  | S f =>
      match items with
      | [] => []
      | [x] => [andb (fst x <=? C) (0 <? snd x)%Z]
      | _ =>
          let h := length items / 2 in
          let right := firstn h items in
          let left := skipn h items in
          let L := up_profile left (S C) in
          let R := rev (up_profile right (S C)) in
          let c := argmax (fun c => nth c L 0 + nth c R 0)%Z C in
          upstream Q f right (Nat.min (S C - c) Q) ++ upstream Q f left (Nat.min c Q)
      end
  end.

(** The top call: [(0, n, Q)] with enough fuel for every split ([n] levels). *)
Definition upstream_solve (items : list item) (Q : nat) : list bool :=
  upstream Q (length items) items Q.

(** pytorch issue #197871: weights [1, 1, 1], values [1, 1, 1], budget 1 unit.
    Upstream saves items 0 and 1: weight 2 > 1. *)
Definition issue_197871 : list item := [(1, 1%Z); (1, 1%Z); (1, 1%Z)].

Theorem upstream_197871 :
  upstream_solve issue_197871 1 = [true; true; false] /\
  weight issue_197871 (upstream_solve issue_197871 1) = 2 /\
  ~ feasible issue_197871 1 (upstream_solve issue_197871 1).
Proof.
  assert (E : upstream_solve issue_197871 1 = [true; true; false]) by (vm_compute; reflexivity).
  rewrite E. unfold feasible, weight. simpl. split; [reflexivity | split; [reflexivity | lia]].
Qed.

Lemma upstream_length : forall Q fuel items C, length (upstream Q fuel items C) = length items.
Proof.
  induction fuel as [|f IH]; intros items C; simpl; [apply repeat_length|].
  destruct items as [|x [|y l]]; simpl; auto.
  rewrite app_length, !IH, <- app_length, firstn_skipn. reflexivity.
Qed.

(** The ceiling: a segment of [n >= 1] items with capacity [C] gets back a
    selection of weight at most [C + (n - 1)]: one unit per split (internal
    node of the recursion), whatever split each node picks. At the top
    ([C = Q]) the overshoot is at most [n - 1] units. *)
Theorem upstream_overshoot : forall Q fuel items C,
  weight items (upstream Q fuel items C) <= C + (length items - 1).
Proof.
  induction fuel as [|f IH]; intros items C.
  - simpl. unfold weight. rewrite pick_none. simpl. lia.
  - destruct items as [|x [|y l]].
    + simpl. unfold weight; simpl; lia.
    + simpl. unfold weight. simpl. destruct (Nat.leb_spec (fst x) C); destruct (0 <? snd x)%Z; simpl; lia.
    + cbn [upstream]. set (items := x :: y :: l).
      set (h := length items / 2).
      set (c := argmax _ C).
      assert (Hc : c <= C) by apply argmax_spec.
      assert (Hh1 : 1 <= h) by (apply Nat.div_str_pos; simpl; lia).
      assert (Hh2 : h < length items) by (apply Nat.div_lt; simpl; lia).
      rewrite <- (firstn_skipn h items) at 1.
      rewrite weight_app by (rewrite upstream_length; reflexivity).
      pose proof (IH (firstn h items) (Nat.min (S C - c) Q)) as H1.
      pose proof (IH (skipn h items) (Nat.min c Q)) as H2.
      rewrite firstn_length in H1. rewrite skipn_length in H2.
      lia.
Qed.

(** The ceiling is reached: on these instances of 2, 3, 4 and 5 items (found
    by a search over small weights and values) upstream returns exactly
    [Q + n - 1] units. *)
Example upstream_overshoot_tight :
  weight [(1, 1%Z); (1, 2%Z)] (upstream_solve [(1, 1%Z); (1, 2%Z)] 1) = 1 + 1 /\
  weight [(1, 1%Z); (1, 1%Z); (1, 2%Z)] (upstream_solve [(1, 1%Z); (1, 1%Z); (1, 2%Z)] 1) = 1 + 2 /\
  weight [(1, 1%Z); (2, 2%Z); (1, 1%Z); (1, 2%Z)]
    (upstream_solve [(1, 1%Z); (2, 2%Z); (1, 1%Z); (1, 2%Z)] 2) = 2 + 3 /\
  weight [(1, 1%Z); (2, 2%Z); (1, 1%Z); (1, 1%Z); (1, 2%Z)]
    (upstream_solve [(1, 1%Z); (2, 2%Z); (1, 1%Z); (1, 1%Z); (1, 2%Z)] 2) = 2 + 4.
Proof. vm_compute. repeat split; reflexivity. Qed.
