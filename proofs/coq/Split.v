(** * The split lemma (proofs/06, Lemma 6.1 and Corollary 6.2) *)

From Coq Require Import List Arith ZArith Lia.
From Knapsack Require Import Spec.
Import ListNotations.

(** [maxc g C] is [max_{0 <= c <= C} g c]; [argmax g C] is the first [c] that
    attains it (as [torch.argmax] and the backends' [best_split] take it). *)
Fixpoint maxc (g : nat -> Z) (C : nat) : Z :=
  match C with 0 => g 0 | S k => Z.max (maxc g k) (g (S k)) end.

Fixpoint argmax (g : nat -> Z) (C : nat) : nat :=
  match C with 0 => 0 | S k => if (maxc g k <? g (S k))%Z then S k else argmax g k end.

Lemma maxc_ge : forall g C c, c <= C -> (g c <= maxc g C)%Z.
Proof.
  induction C as [|C IH]; simpl; intros c H.
  - replace c with 0 by lia. lia.
  - destruct (Nat.eq_dec c (S C)) as [->|E]; [lia|]. specialize (IH c ltac:(lia)). lia.
Qed.

Lemma argmax_spec : forall g C,
  argmax g C <= C /\ g (argmax g C) = maxc g C /\
  (forall c, c < argmax g C -> (g c < maxc g C)%Z).
Proof.
  induction C as [|C IH]; simpl.
  - repeat split; intros; lia.
  - destruct IH as [H1 [H2 H3]]. destruct (Z.ltb_spec (maxc g C) (g (S C))) as [L|L].
    + repeat split; [lia|lia|]. intros c Hc. pose proof (maxc_ge g C c ltac:(lia)). lia.
    + repeat split; [lia|lia|]. intros c Hc. specialize (H3 c Hc). lia.
Qed.

Lemma maxc_attained : forall g C, exists c, c <= C /\ g c = maxc g C.
Proof. intros g C. exists (argmax g C). destruct (argmax_spec g C) as [H1 [H2 _]]. auto. Qed.

Definition split_value (A B : list item) (C c : nat) : Z := (OPT A c + OPT B (C - c))%Z.

(** Lemma 6.1: the optimum of a concatenation is the best split of the capacity. *)
Theorem split_lemma : forall A B C, OPT (A ++ B) C = maxc (split_value A B C) C.
Proof.
  intros A B C. apply is_opt_OPT. split.
  - destruct (maxc_attained (split_value A B C) C) as [c [Hc <-]].
    destruct (OPT_attained A c) as [mA [[HlA HwA] HvA]].
    destruct (OPT_attained B (C - c)) as [mB [[HlB HwB] HvB]].
    exists (mA ++ mB). unfold split_value. split; [split|].
    + rewrite !app_length. lia.
    + rewrite weight_app; lia.
    + rewrite value_app; lia.
  - intros m [Hl Hw]. rewrite app_length in Hl.
    destruct (mask_split A B m Hl) as [mA [mB [-> [HlA HlB]]]].
    rewrite weight_app in Hw by auto. rewrite value_app by auto.
    pose proof (OPT_upper A (weight A mA) mA ltac:(split; auto)).
    pose proof (OPT_upper B (C - weight A mA) mB ltac:(split; auto; lia)).
    pose proof (maxc_ge (split_value A B C) C (weight A mA) ltac:(lia)).
    unfold split_value in *. lia.
Qed.

(** Corollary 6.2: any maximising [c], optimal answers of [(A, c)] and
    [(B, C - c)] together are an optimal answer of [(A ++ B, C)]. *)
Theorem split_recurse : forall A B C c mA mB,
  c <= C -> split_value A B C c = maxc (split_value A B C) C ->
  feasible A c mA -> value A mA = OPT A c ->
  feasible B (C - c) mB -> value B mB = OPT B (C - c) ->
  feasible (A ++ B) C (mA ++ mB) /\ value (A ++ B) (mA ++ mB) = OPT (A ++ B) C.
Proof.
  intros A B C c mA mB Hc Hmax [HlA HwA] HvA [HlB HwB] HvB.
  rewrite split_lemma, <- Hmax. unfold split_value. split; [split|].
  - rewrite !app_length. lia.
  - rewrite weight_app; lia.
  - rewrite value_app; lia.
Qed.

(** The first maximiser, the one the backends and [torch.argmax] return, is one of them. *)
Theorem split_first_max : forall A B C,
  let c := argmax (split_value A B C) C in
  c <= C /\ split_value A B C c = OPT (A ++ B) C /\
  (forall c', c' < c -> (split_value A B C c' < OPT (A ++ B) C)%Z).
Proof. intros A B C c. rewrite split_lemma. apply argmax_spec. Qed.

Lemma weight_one : forall w v b, weight [(w, v)] [b] = if b then w else 0.
Proof. intros w v []; unfold weight; simpl; lia. Qed.

Lemma value_one : forall w v b, value [(w, v)] [b] = if b then v else 0%Z.
Proof. intros w v []; unfold value; simpl; lia. Qed.

(** The recurrence of proofs/02 for the item appended last (the table's order). *)
Lemma OPT_snoc : forall l w v c,
  OPT (l ++ [(w, v)]) c =
  if c <? w then OPT l c else Z.max (OPT l c) (v + OPT l (c - w))%Z.
Proof.
  intros l w v c. apply is_opt_OPT. split.
  - destruct (Nat.ltb_spec c w) as [H|H].
    + destruct (OPT_attained l c) as [m [[Hl Hw] Hv]].
      exists (m ++ [false]). split; [split|].
      * rewrite !app_length; simpl; lia.
      * rewrite weight_app by auto. rewrite weight_one; simpl; lia.
      * rewrite value_app by auto. rewrite value_one; simpl; lia.
    + destruct (Z.max_spec (OPT l c) (v + OPT l (c - w))) as [[_ E]|[_ E]]; rewrite E.
      * destruct (OPT_attained l (c - w)) as [m [[Hl Hw] Hv]].
        exists (m ++ [true]). split; [split|].
        -- rewrite !app_length; simpl; lia.
        -- rewrite weight_app by auto. rewrite weight_one; simpl; lia.
        -- rewrite value_app by auto. rewrite value_one; simpl; lia.
      * destruct (OPT_attained l c) as [m [[Hl Hw] Hv]].
        exists (m ++ [false]). split; [split|].
        -- rewrite !app_length; simpl; lia.
        -- rewrite weight_app by auto. rewrite weight_one; simpl; lia.
        -- rewrite value_app by auto. rewrite value_one; simpl; lia.
  - intros m [Hl Hw]. rewrite app_length in Hl.
    destruct (mask_split l [(w, v)] m Hl) as [m1 [m2 [-> [H1 H2]]]].
    rewrite weight_app in Hw by auto. rewrite value_app by auto.
    destruct m2 as [|b [|]]; simpl in H2; try discriminate.
    rewrite weight_one in Hw; rewrite value_one. destruct b.
    + assert (w <= c) by lia.
      pose proof (OPT_upper l (c - w) m1 ltac:(split; auto; lia)).
      destruct (Nat.ltb_spec c w); lia.
    + pose proof (OPT_upper l c m1 ltac:(split; auto; lia)).
      destruct (Nat.ltb_spec c w); lia.
Qed.
