(** * Binary splitting of copies (proofs/10, Lemma 10.1 and the bundle instance)

    [bundle_sizes m] is [optimized/grouping.py]'s [bundle_sizes]: the powers
    [1, 2, ..., 2 ^ (p - 1)] with [p = log2 (m + 1)] (the largest [p] with
    [2 ^ p - 1 <= m], where its loop stops), then the remainder
    [r = m - (2 ^ p - 1)] unless it is 0. Its subset sums are exactly
    [0..m] ([bundle_sums]). So [m] copies of an item [(w, v)] and the bundles
    [(s * w, s * v)] allow the same (weight, value) pairs, and any instance
    made of types (an item and its number of copies) has the same [OPT] as its
    bundle instance ([bundles_OPT]). *)

From Coq Require Import List Arith ZArith Lia.
From Knapsack Require Import Spec.
Import ListNotations.

Definition powers (p : nat) : list nat := map (Nat.pow 2) (seq 0 p).

Definition bundle_sizes (m : nat) : list nat :=
  let p := Nat.log2 (S m) in
  let r := m - (2 ^ p - 1) in
  powers p ++ (if r =? 0 then [] else [r]).

Fixpoint nsum (l : list nat) : nat := match l with [] => 0 | x :: xs => x + nsum xs end.

Fixpoint npick (l : list nat) (mk : list bool) : list nat :=
  match l, mk with
  | x :: xs, b :: bs => if b then x :: npick xs bs else npick xs bs
  | _, _ => []
  end.

Lemma nsum_app : forall l l', nsum (l ++ l') = nsum l + nsum l'.
Proof. induction l; simpl; intros; try rewrite IHl; lia. Qed.

Lemma npick_app : forall l l' mk mk', length mk = length l ->
  npick (l ++ l') (mk ++ mk') = npick l mk ++ npick l' mk'.
Proof.
  induction l as [|x l IH]; intros l' mk mk' H; destruct mk as [|b mk]; simpl in *;
    try discriminate; auto.
  destruct b; [rewrite IH|apply IH]; auto.
Qed.

Lemma nsum_npick_le : forall l mk, nsum (npick l mk) <= nsum l.
Proof. induction l as [|x l IH]; destruct mk as [|[] mk]; simpl; try specialize (IH mk); lia. Qed.

Lemma powers_S : forall p, powers (S p) = powers p ++ [2 ^ p].
Proof. intros p. unfold powers. rewrite seq_S, map_app. reflexivity. Qed.

Lemma powers_length : forall p, length (powers p) = p.
Proof. intros p. unfold powers. rewrite map_length, seq_length. reflexivity. Qed.

Lemma nsum_powers : forall p, nsum (powers p) = 2 ^ p - 1.
Proof.
  induction p as [|p IH]; [reflexivity|].
  rewrite powers_S, nsum_app, IH. simpl nsum. rewrite Nat.pow_succ_r'.
  pose proof (Nat.pow_nonzero 2 p ltac:(lia)). lia.
Qed.

Lemma powers_sums : forall p t, t < 2 ^ p ->
  exists mk, length mk = p /\ nsum (npick (powers p) mk) = t.
Proof.
  induction p as [|p IH]; intros t H.
  - exists []. simpl in *. split; auto; lia.
  - rewrite Nat.pow_succ_r' in H. rewrite powers_S.
    destruct (Nat.lt_ge_cases t (2 ^ p)) as [Lt|Ge].
    + destruct (IH t Lt) as [mk [Hl Hs]]. exists (mk ++ [false]).
      rewrite app_length, npick_app, nsum_app by (rewrite powers_length; auto).
      simpl. split; lia.
    + destruct (IH (t - 2 ^ p) ltac:(lia)) as [mk [Hl Hs]]. exists (mk ++ [true]).
      rewrite app_length, npick_app, nsum_app by (rewrite powers_length; auto).
      simpl. split; lia.
Qed.

(** Lemma 10.1: the subset sums of [bundle_sizes m] are exactly [0..m]. *)
Theorem bundle_sums : forall m t,
  (exists mk, length mk = length (bundle_sizes m) /\ nsum (npick (bundle_sizes m) mk) = t) <->
  t <= m.
Proof.
  intros m t. unfold bundle_sizes.
  set (p := Nat.log2 (S m)). set (r := m - (2 ^ p - 1)).
  destruct (Nat.log2_spec (S m) ltac:(lia)) as [Lo Hi]. fold p in Lo, Hi.
  rewrite Nat.pow_succ_r' in Hi.
  assert (Htot : nsum (powers p ++ (if r =? 0 then [] else [r])) = m).
  { rewrite nsum_app, nsum_powers. destruct (Nat.eqb_spec r 0); simpl; unfold r in *; lia. }
  split.
  - intros [mk [_ <-]]. rewrite <- Htot. apply nsum_npick_le.
  - intros Ht. destruct (Nat.lt_ge_cases t (2 ^ p)) as [Lt|Ge].
    + destruct (powers_sums p t Lt) as [mk [Hl Hs]].
      exists (mk ++ (if r =? 0 then [] else [false])).
      rewrite npick_app, nsum_app, !app_length, powers_length by (rewrite powers_length; auto).
      destruct (r =? 0); simpl; split; lia.
    + assert (Hr : r <> 0) by (unfold r; lia).
      apply Nat.eqb_neq in Hr. rewrite Hr.
      destruct (powers_sums p (t - r) ltac:(unfold r; lia)) as [mk [Hl Hs]].
      exists (mk ++ [true]).
      rewrite npick_app, nsum_app, !app_length, powers_length by (rewrite powers_length; auto).
      simpl. apply Nat.eqb_neq in Hr. split; [lia|]. unfold r in *. lia.
Qed.

(** ** The same optimum *)

(** [(W, V)] is the weight and value of some subset of [items]. *)
Definition achieves (items : list item) (W : nat) (V : Z) : Prop :=
  exists m, length m = length items /\ weight items m = W /\ value items m = V.

Lemma achieves_OPT : forall I J,
  (forall W V, achieves I W V <-> achieves J W V) -> forall C, OPT I C = OPT J C.
Proof.
  intros I J E C. apply is_opt_OPT. split.
  - destruct (OPT_attained J C) as [m [[Hl Hw] Hv]].
    destruct (proj2 (E (weight J m) (value J m)) ltac:(exists m; auto)) as [m' [H1 [H2 H3]]].
    exists m'. split; [split|]; [auto | lia | lia].
  - intros m [Hl Hw].
    destruct (proj1 (E (weight I m) (value I m)) ltac:(exists m; auto)) as [m' [H1 [H2 H3]]].
    rewrite <- H3. apply OPT_upper. split; [auto | lia].
Qed.

Lemma achieves_app : forall A B W V, achieves (A ++ B) W V <->
  exists W1 V1 W2 V2, achieves A W1 V1 /\ achieves B W2 V2 /\ W = W1 + W2 /\ V = (V1 + V2)%Z.
Proof.
  intros A B W V. split.
  - intros [m [Hl [Hw Hv]]]. rewrite app_length in Hl.
    destruct (mask_split A B m Hl) as [mA [mB [-> [HA HB]]]].
    rewrite weight_app in Hw by auto. rewrite value_app in Hv by auto.
    exists (weight A mA), (value A mA), (weight B mB), (value B mB).
    split; [exists mA; auto|]. split; [exists mB; auto|]. auto.
  - intros [W1 [V1 [W2 [V2 [[mA [HA [H1 H2]]] [[mB [HB [H3 H4]]] [-> ->]]]]]]].
    exists (mA ++ mB). rewrite !app_length, weight_app, value_app by auto. repeat split; lia.
Qed.

Definition scale (w : nat) (v : Z) (s : nat) : item := (s * w, (Z.of_nat s * v)%Z).

Lemma copies_achieve : forall w v k W V,
  achieves (repeat (w, v) k) W V <-> exists t, t <= k /\ W = t * w /\ V = (Z.of_nat t * v)%Z.
Proof.
  intros w v. induction k as [|k IH]; intros W V.
  - split.
    + intros [m [Hl [Hw Hv]]]. destruct m; [|discriminate]. unfold weight, value in *. simpl in *.
      exists 0. lia.
    + intros [t [Ht [-> ->]]]. replace t with 0 by lia. exists []. unfold weight, value.
      simpl. repeat split; lia.
  - change (repeat (w, v) (S k)) with ([(w, v)] ++ repeat (w, v) k). rewrite achieves_app.
    split.
    + intros [W1 [V1 [W2 [V2 [[m1 [H1 [Hw1 Hv1]]] [H2 [-> ->]]]]]]].
      apply IH in H2. destruct H2 as [t [Ht [-> ->]]].
      destruct m1 as [|b [|]]; try discriminate. unfold weight, value in *.
      destruct b; simpl in *; [exists (S t) | exists t]; split; lia.
    + intros [t [Ht [-> ->]]]. destruct t as [|t].
      * exists 0, 0%Z, 0, 0%Z. split; [exists [false]; unfold weight, value; simpl; auto|].
        split; [apply IH; exists 0; lia|]. lia.
      * exists w, v, (t * w), (Z.of_nat t * v)%Z.
        split; [exists [true]; unfold weight, value; simpl; split; auto; split; lia|].
        split; [apply IH; exists t; split; [lia | auto]|]. lia.
Qed.

Lemma pick_scale : forall w v sizes mk,
  pick (map (scale w v) sizes) mk = map (scale w v) (npick sizes mk).
Proof.
  induction sizes as [|s sizes IH]; intros mk; destruct mk as [|[] mk]; simpl; auto.
  rewrite IH. reflexivity.
Qed.

Lemma sums_scale : forall w v l,
  wsum (map (scale w v) l) = nsum l * w /\ vsum (map (scale w v) l) = (Z.of_nat (nsum l) * v)%Z.
Proof.
  induction l as [|s l [H1 H2]]; simpl; [split; lia|]. rewrite H1, H2. split; lia.
Qed.

Lemma bundles_achieve : forall w v k W V,
  achieves (map (scale w v) (bundle_sizes k)) W V <->
  exists t, t <= k /\ W = t * w /\ V = (Z.of_nat t * v)%Z.
Proof.
  intros w v k W V. split.
  - intros [m [Hl [Hw Hv]]]. unfold weight, value in *. rewrite pick_scale in Hw, Hv.
    destruct (sums_scale w v (npick (bundle_sizes k) m)) as [H1 H2].
    exists (nsum (npick (bundle_sizes k) m)). rewrite map_length in Hl.
    split; [apply bundle_sums; exists m; auto|]. lia.
  - intros [t [Ht [-> ->]]]. apply bundle_sums in Ht. destruct Ht as [m [Hl Hs]].
    exists m. unfold weight, value. rewrite map_length, pick_scale.
    destruct (sums_scale w v (npick (bundle_sizes k) m)) as [H1 H2]. rewrite H1, H2, Hs. auto.
Qed.

(** An instance given by types: each an item [(w, v)] and its number of copies. *)
Definition copies (types : list (nat * Z * nat)) : list item :=
  flat_map (fun '(w, v, k) => repeat (w, v) k) types.

Definition bundles (types : list (nat * Z * nat)) : list item :=
  flat_map (fun '(w, v, k) => map (scale w v) (bundle_sizes k)) types.

(** The bounded knapsack over the bundles has the optimum of the 0/1 knapsack
    over the copies, at every capacity. *)
Theorem bundles_OPT : forall types C, OPT (bundles types) C = OPT (copies types) C.
Proof.
  intros types C. apply achieves_OPT. clear C.
  induction types as [|[[w v] k] types IH]; intros W V; [reflexivity|].
  unfold bundles, copies. simpl. fold (bundles types) (copies types).
  rewrite !achieves_app. split.
  - intros [W1 [V1 [W2 [V2 [H1 [H2 E]]]]]]. exists W1, V1, W2, V2.
    rewrite copies_achieve, <- bundles_achieve, <- IH. auto.
  - intros [W1 [V1 [W2 [V2 [H1 [H2 E]]]]]]. exists W1, V1, W2, V2.
    rewrite bundles_achieve, <- copies_achieve, IH. auto.
Qed.

(** [bundle_sizes] agrees with the docstring examples of [grouping.bundle_sizes]. *)
Example bundle_sizes_examples :
  bundle_sizes 1 = [1] /\ bundle_sizes 6 = [1; 2; 3] /\ bundle_sizes 7 = [1; 2; 4].
Proof. vm_compute. auto. Qed.
