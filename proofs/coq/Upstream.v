(** * Upstream's recursion (torch 2.10 to 2.15 [dp_knapsack_sliding_hirschberg]) and its off-by-one

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
    pops segments does not change the saved set, so the model recurses.
    [patched] is the same loop with the fix of
    patches/upstream-knapsack-offbyone.patch ([C - c*] units). *)

From Coq Require Import List Arith ZArith Lia.
From Knapsack Require Import Spec Split Table Driver.
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

(** ** The fix (patches/upstream-knapsack-offbyone.patch)

    With the right half given [C - c*] units instead of [C + 1 - c*], the
    halves share exactly [C], and upstream's recursion is Corollary 6.2:
    on values [>= 0] it returns a feasible optimal subset. *)

Fixpoint patched (Q fuel : nat) (items : list item) (C : nat) : list bool :=
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
          patched Q f right (Nat.min (C - c) Q) ++ patched Q f left (Nat.min c Q)
      end
  end.

Definition patched_solve (items : list item) (Q : nat) : list bool :=
  patched Q (length items) items Q.

Lemma up_profile_length : forall items cap, length (up_profile items cap) = cap.
Proof.
  intros items cap. unfold up_profile. rewrite <- (rev_involutive items).
  induction (rev items) as [|y l IHl]; simpl.
  - apply repeat_length.
  - rewrite fold_left_app. simpl.
    destruct (fst y =? 0); [rewrite map_length|destruct (cap <=? fst y); [|rewrite next_row_length]];
      apply IHl.
Qed.

Lemma nth_map_lt : forall (f : Z -> Z) l c, c < length l -> nth c (map f l) 0%Z = f (nth c l 0%Z).
Proof. intros f l c H. rewrite nth_indep with (d' := f 0%Z) by (rewrite map_length; exact H). apply map_nth. Qed.

(** On values [>= 0] upstream's profile is the table's row: a weight-0 item
    adding [v >= 0] everywhere is the recurrence's [max], and an item heavier
    than the buffer changes no cell. *)
Lemma up_profile_opt : forall items cap c, Forall (fun x => (0 <= snd x)%Z) items -> c < cap ->
  nth c (up_profile items cap) 0%Z = OPT items c.
Proof.
  intros items cap c Hpos Hc. rewrite <- (table_opt items cap c Hc).
  unfold up_profile, last_row. rewrite <- (rev_involutive items) in Hpos |- *.
  revert c Hc. induction (rev items) as [|[w v] r IH]; intros c Hc; simpl; auto.
  rewrite !fold_left_app. simpl.
  apply Forall_app in Hpos. destruct Hpos as [Hr Hx]. pose proof (Forall_inv Hx) as Hv. simpl in Hv.
  set (up := fold_left _ (rev r) (repeat 0%Z cap)).
  set (tb := fold_left _ (rev r) (repeat 0%Z cap)).
  assert (Lup : length up = cap) by apply up_profile_length.
  assert (Ltb : length tb = cap).
  { pose proof (last_row_length (rev r) cap) as H. unfold last_row in H. exact H. }
  assert (E : forall c, c < cap -> nth c up 0%Z = nth c tb 0%Z)
    by (intros; apply IH; auto).
  rewrite (next_row_nth tb) by lia.
  destruct (Nat.eqb_spec w 0) as [->|W0].
  - rewrite nth_map_lt, E by lia. rewrite Nat.sub_0_r. destruct (Nat.ltb_spec c 0); lia.
  - destruct (Nat.leb_spec cap w) as [Heavy|Light].
    + rewrite E by lia. destruct (Nat.ltb_spec c w); [reflexivity | lia].
    + rewrite next_row_nth by lia. rewrite !E by lia. reflexivity.
Qed.

Lemma split_swap : forall F G C c, c <= C ->
  (forall c', c' <= C -> (OPT G c' + OPT F (C - c') <= OPT G c + OPT F (C - c))%Z) ->
  split_value F G C (C - c) = maxc (split_value F G C) C.
Proof.
  intros F G C c Hc H. destruct (maxc_attained (split_value F G C) C) as [c' [Hc' E]].
  apply Z.le_antisymm; [apply maxc_ge; lia|].
  rewrite <- E. unfold split_value. specialize (H (C - c') ltac:(lia)).
  replace (C - (C - c')) with c' in H by lia. replace (C - (C - c)) with c by lia. lia.
Qed.

Lemma one_item_opt : forall w v C, (0 <= v)%Z ->
  feasible [(w, v)] C [andb (w <=? C) (0 <? v)%Z] /\
  value [(w, v)] [andb (w <=? C) (0 <? v)%Z] = OPT [(w, v)] C.
Proof.
  intros w v C Hv.
  assert (Hf : feasible [(w, v)] C [andb (w <=? C) (0 <? v)%Z]).
  { split; [reflexivity|]. rewrite weight_one.
    destruct (Nat.leb_spec w C); destruct (Z.ltb_spec 0 v); simpl; lia. }
  split; [exact Hf|]. apply Z.le_antisymm; [apply OPT_upper; exact Hf|].
  destruct (OPT_attained [(w, v)] C) as [m [[Hl Hw] <-]].
  destruct m as [|b [|]]; try discriminate. rewrite !value_one, !weight_one in *.
  destruct b, (Nat.leb_spec w C), (Z.ltb_spec 0 v); simpl; lia.
Qed.

(** The patched recursion, with fuel for every split and a capacity within
    [Q], returns a feasible optimal subset on values [>= 0]. *)
Theorem patched_correct : forall Q fuel items C, length items <= fuel -> C <= Q -> nonneg items ->
  feasible items C (patched Q fuel items C) /\ value items (patched Q fuel items C) = OPT items C.
Proof.
  intros Q. induction fuel as [|f IH]; intros items C Hn HQ Hpos.
  - destruct items; simpl in Hn; [|lia]. simpl. rewrite OPT_nil.
    unfold feasible, weight, value. simpl. split; [split|]; auto; lia.
  - destruct items as [|x [|y l]].
    + simpl. rewrite OPT_nil. unfold feasible, weight, value. simpl. split; [split|]; auto; lia.
    + destruct x as [w v]. cbn [patched]. apply one_item_opt. exact (Forall_inv Hpos).
    + cbn [patched]. set (items := x :: y :: l) in *.
      set (h := length items / 2).
      assert (Hh1 : 1 <= h) by (apply Nat.div_str_pos; simpl; lia).
      assert (Hh2 : h < length items) by (apply Nat.div_lt; simpl; lia).
      set (F := firstn h items). set (G := skipn h items).
      assert (HFG : items = F ++ G) by (symmetry; apply firstn_skipn).
      assert (HP : nonneg F /\ nonneg G) by (apply Forall_app; rewrite <- HFG; exact Hpos).
      destruct HP as [HF HG].
      assert (LF : length F = h) by (unfold F; rewrite firstn_length; lia).
      assert (LG : length G = length items - h) by (unfold G; rewrite skipn_length; lia).
      set (g := fun c => (nth c (up_profile G (S C)) 0 + nth c (rev (up_profile F (S C))) 0)%Z).
      set (c := argmax g C).
      assert (Eg : forall c', c' <= C -> g c' = (OPT G c' + OPT F (C - c'))%Z).
      { intros c' Hc'. unfold g. rewrite rev_nth by (rewrite up_profile_length; lia).
        rewrite up_profile_length, !up_profile_opt by (auto; lia).
        replace (S C - S c') with (C - c') by lia. reflexivity. }
      destruct (argmax_spec g C) as [Hc [Hmax _]]. fold c in Hc, Hmax.
      rewrite (Nat.min_l (C - c) Q), (Nat.min_l c Q) by lia.
      destruct (IH F (C - c) ltac:(lia) ltac:(lia) HF) as [HfF HvF].
      destruct (IH G c ltac:(lia) ltac:(lia) HG) as [HfG HvG].
      rewrite HFG.
      apply split_recurse with (c := C - c); [lia | | exact HfF | exact HvF | |].
      * apply split_swap; [lia|]. intros c' Hc'. rewrite <- !Eg by lia. rewrite Hmax.
        apply maxc_ge. exact Hc'.
      * replace (C - (C - c)) with c by lia. exact HfG.
      * replace (C - (C - c)) with c by lia. exact HvG.
Qed.

(** With the fix, pytorch issue #197871's instance gets item 0 only. *)
Example patched_197871 : patched_solve issue_197871 1 = [true; false; false].
Proof. vm_compute. reflexivity. Qed.
